// Telling a player that it is their turn: the tab's title and favicon always; a short sound
// (made with WebAudio, no audio file) and a browser notification (when the tab is hidden) if
// the player switched them on. The settings are kept in this browser.
const KEY = "bigtop.notify";
const ICON = "img/favicon.svg";
const ICON_TURN = "img/favicon-turn.svg";

const state = {settings: {sound: false, popup: false}, mine: false, title: "", audio: null};

function load() {
  try { return {...state.settings, ...JSON.parse(localStorage.getItem(KEY) || "{}")}; } catch { return state.settings; }
}

function save() {
  try { localStorage.setItem(KEY, JSON.stringify(state.settings)); } catch { /* this page only */ }
}

/** Wire the two checkboxes (sound, notification) and the line that says what they do. */
export function setupNotify(soundBox, popupBox, note) {
  state.settings = load();
  // A permission taken back in the browser's settings turns the setting off.
  if (state.settings.popup && !("Notification" in window && Notification.permission === "granted")) {
    state.settings.popup = false;
  }
  soundBox.checked = state.settings.sound;
  popupBox.checked = state.settings.popup;
  soundBox.onchange = () => {
    state.settings.sound = soundBox.checked;
    save();
    if (soundBox.checked) chime(); // a click is the gesture a browser needs to allow sound
  };
  popupBox.onchange = async () => {
    note.textContent = "";
    if (popupBox.checked) {
      if (!("Notification" in window)) {
        popupBox.checked = false;
        note.textContent = "This browser has no notifications.";
      } else if ((await Notification.requestPermission()) !== "granted") {
        popupBox.checked = false;
        note.textContent = "The browser does not allow notifications from this page (see its site settings).";
      }
    }
    state.settings.popup = popupBox.checked;
    save();
  };
}

/** The page's title (the game's), shown with a mark while it is your turn. */
export function setTitle(title) {
  state.title = title;
  document.title = state.mine ? `● Your turn — ${title}` : title;
}

/** Called with every view drawn: marks your turn, and on its start plays the sound and
 * notifies (when the tab is hidden) as the settings say. */
export function markTurn(mine, what) {
  const started = mine && !state.mine;
  state.mine = mine;
  setTitle(state.title);
  const icon = document.getElementById("favicon");
  if (icon) icon.setAttribute("href", mine ? ICON_TURN : ICON);
  document.body.dataset.turnMark = mine ? "yes" : "no";
  if (!started) return;
  if (state.settings.sound) chime();
  if (state.settings.popup && document.hidden && "Notification" in window && Notification.permission === "granted") {
    const n = new Notification("bigtop: your turn", {body: what, icon: ICON_TURN, tag: "bigtop-turn"});
    n.onclick = () => { window.focus(); n.close(); };
    count("notified");
  }
}

/** Two short tones (660 Hz, then 880 Hz), generated: nothing is fetched. */
function chime() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    state.audio ??= new Ctx();
    const ac = state.audio;
    if (ac.state === "suspended") ac.resume();
    [[660, 0], [880, 0.16]].forEach(([freq, at]) => {
      const osc = ac.createOscillator(), gain = ac.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, ac.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.2, ac.currentTime + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ac.currentTime + at + 0.14);
      osc.connect(gain).connect(ac.destination);
      osc.start(ac.currentTime + at);
      osc.stop(ac.currentTime + at + 0.15);
    });
    count("chimes");
  } catch { /* no sound on this device: the title and favicon still say it */ }
}

/** body[data-chimes], body[data-notified]: how many were given (for tools and the tests). */
function count(what) {
  document.body.dataset[what] = String(Number(document.body.dataset[what] || 0) + 1);
}
