// The table's clocks, shown live (docs/server.md: Clocks). The server is the only timekeeper:
// a view carries each seat's time at the start of the turn (`clock_state.left`), the running
// seat's `deadline` and the server's `now`; the page counts down from its own receipt of the
// view, so its own clock's error does not matter.
import { fill, h, who } from "./dom.js";

const clocks = {view: null, offset: 0, timer: null};

/** Take a view's clocks (none: the line is empty) and keep them ticking. */
export function drawClocks(view) {
  clocks.view = view;
  // Server time = our time + offset, measured when the view arrived.
  clocks.offset = typeof view.now === "number" ? view.now - Date.now() / 1000 : 0;
  const live = view.clock_state && view.status === "playing";
  if (live && !clocks.timer) clocks.timer = setInterval(tick, 250);
  if (!live && clocks.timer) { clearInterval(clocks.timer); clocks.timer = null; }
  tick();
}

/** "1:05", "0:09", "12:00". */
function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const view = clocks.view;
  const box = document.getElementById("clocks");
  const cs = view && view.clock_state;
  if (!cs) { fill(box); return; }
  const now = Date.now() / 1000 + clocks.offset;
  const playing = view.status === "playing";
  const parts = [];
  for (const seat of view.seats) {
    const p = seat.seat;
    if (seat.kind === "bot") continue; // clocks run only for people
    const running = playing && cs.running === p;
    // Out of time while it shows: a bot plays the seat since, its game clock is spent, or the
    // game ended on it. A person who took the seat back (a clock a move) has time again.
    const spent = cs.left && cs.left[p] !== null && cs.left[p] <= 0;
    const out = (cs.timed_out || []).includes(p) &&
      (!!seat.bot_playing || spent || (view.result && view.result.timed_out === p));
    // The running seat: until its deadline (whichever of its clocks runs out first);
    // the others: their game clock, as it stood at the start of this turn.
    const left = running && cs.deadline ? cs.deadline - now : (cs.left ? cs.left[p] : null);
    if (left === null || left === undefined) {
      if (!out) continue;
    }
    const text = out ? "out of time" : mmss(left);
    parts.push(h("span", {class: `clock${running ? " running" : ""}${!out && running && left < 10 ? " low" : ""}${out ? " out" : ""}`,
      dataset: {clockSeat: p, left: out ? 0 : Math.max(0, left).toFixed(1)},
      "aria-label": `${who(p)}: ${out ? "out of time" : `${text} left`}`},
    `${who(p)} `, h("strong", {}, text)));
  }
  fill(box, parts);
}
