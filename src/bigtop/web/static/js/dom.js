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
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", {style: "position:fixed;opacity:0"}, text);
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  toast("Copied to the clipboard");
}

/** Resolve after `ms` milliseconds (animations, pacing of bot moves). */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A seat's label: "P0", or "P0 (you)" for the viewer's own seat. */
export function seatName(seat, mySeat) {
  return seat === mySeat ? `P${seat} (you)` : `P${seat}`;
}
