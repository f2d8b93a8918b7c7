// Small DOM helpers shared by every page: element builders (HTML and SVG), a toast line, and
// copying to the clipboard. No framework: pages redraw their parts from the latest view.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Build an HTML element: h("button", {class: "x", onclick: f}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** Build an SVG element the same way: s("circle", {cx: 1, cy: 2, r: 3}). */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "style") {
      // Through the CSSOM, never a style="" attribute (the CSP allows no inline style).
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace every child of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child);
  }
  return node;
}

/**
 * Replace the children of `node` (a live region's list) with `items`, keeping the leading
 * ones that are the same already: a screen reader then speaks what is new, not the whole
 * list again at every redraw (the move log was read out in full after each move).
 */
export function fillKeeping(node, items) {
  const old = [...node.childNodes];
  let k = 0;
  while (k < old.length && k < items.length && old[k] instanceof Element && old[k].outerHTML === items[k].outerHTML) k++;
  for (const e of old.slice(k)) e.remove();
  node.append(...items.slice(k));
  return node;
}

/** Set a live region's text only when it changes (the same words set again may be spoken again). */
export function sayOnce(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Show a short message in the page's #toast line (role=status). */
export function toast(message) {
  const node = document.getElementById("toast");
  if (!node) return;
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { node.hidden = true; }, 2500);
}

/** Copy text to the clipboard; falls back to selecting a temporary field (http pages). */
export async function copyText(text) {
  let copied = true;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", {class: "offscreen"}, text);
    document.body.append(area);
    area.select();
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    area.remove();
  }
  // Where the browser copies nothing (no clipboard on an http page, copying refused), the
  // text is offered to copy by hand instead of a "Copied" that was not true.
  if (copied) toast("Copied to the clipboard");
  else window.prompt("This browser did not let the page copy it: copy it from here.", text);
}

/** Resolve after `ms` milliseconds (animations, pacing of bot moves). */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// The people's names at the table on this page (view.seats[k].name, else the name the host
// invited them by), set with every view.
let NAMES = [];

/** Take the names of a view's seats (null where nobody with a name sits). */
export function setNames(seats) {
  NAMES = (seats || []).map((s) => (s && (s.name || s.invite)) || null);
}

/** A seat as people read it: the person's name with the seat label as a secondary mark
 * ("Anna (P1)"), or the label alone ("P1") where no name is known. */
export function who(seat) {
  const name = NAMES[seat];
  return name ? `${name} (P${seat})` : `P${seat}`;
}

/** A seat as the server's log lines call it: its person's name alone, else its label. */
export function loggedName(seat) {
  return NAMES[seat] || `P${seat}`;
}

/** A seat's label: "Anna (P0)", "P0", and "(you)" for the viewer's own seat. */
export function seatName(seat, mySeat) {
  if (seat !== mySeat) return who(seat);
  return NAMES[seat] ? `${NAMES[seat]} (P${seat}, you)` : `P${seat} (you)`;
}

/**
 * The engine's rules text as elements (GET /api/games: rules, GET /api/tables/{id}/rules):
 * one paragraph a line, "* " starting a list item; short heads before a colon in bold;
 * always as text, never as HTML. rulesNodes(["Show: play …", "* Pass: …"]) → [p, ul].
 */
export function rulesNodes(lines) {
  const parts = [];
  let items = null; // the lines of the list being read
  const HEAD = /^([^:.,;]{1,20}): /; // "Show: …", "White: …": what an item is about
  const endList = () => {
    if (!items) return;
    // Heads are bold only when every item of the list has one (else the list looks uneven).
    const bold = items.every((line) => HEAD.test(line));
    parts.push(h("ul", {}, items.map((line) => {
      const head = bold && HEAD.exec(line)[1];
      return head ? h("li", {}, h("strong", {}, head), line.slice(head.length)) : h("li", {}, line);
    })));
    items = null;
  };
  for (const line of lines) {
    if (line.startsWith("* ")) {
      (items ??= []).push(line.slice(2));
    } else {
      endList();
      parts.push(h("p", {}, line));
    }
  }
  endList();
  return parts;
}
