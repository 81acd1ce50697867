// The in-page half of the SVG renderer: rasterises one SVG document onto a 2D canvas and reports.
//
// The reply's SVG is never inserted into this page: it is parsed with DOMParser (an inert
// document: no script runs, nothing loads), its root is given the canvas's pixel size, and it is
// loaded as an image from a blob: URL. An SVG loaded as an image runs no script and fetches
// nothing (no external images, fonts or style sheets), a second wall behind the gate. No code of
// the reply runs here, so nothing can replace what the report relies on; it is still saved at
// load time (toDataURL, drawImage, createObjectURL, Image, ...), as painting's harness does, so
// that the report stays ours should that ever change. Python calls `__watercolor.run(options)`
// once per document and stays the authority on time, crashes, dialogs and network (page.py).
(() => {
  "use strict";
  const apply = Reflect.apply;
  const slice = Array.prototype.slice;
  const setter = (type, name) => Object.getOwnPropertyDescriptor(type.prototype, name).set;
  const addListener = EventTarget.prototype.addEventListener;
  const createElement = Document.prototype.createElement;
  const findInDocument = Document.prototype.getElementsByTagNameNS;
  const findInElement = Element.prototype.getElementsByTagNameNS;
  const getAttribute = Element.prototype.getAttribute;
  const setAttribute = Element.prototype.setAttribute;
  const Parser = DOMParser;
  const parseFromString = DOMParser.prototype.parseFromString;
  const Serializer = XMLSerializer;
  const serializeToString = XMLSerializer.prototype.serializeToString;
  const BlobType = Blob;
  const createObjectURL = URL.createObjectURL;
  const revokeObjectURL = URL.revokeObjectURL;
  const ImageType = Image;
  const setImageSrc = setter(HTMLImageElement, "src");
  const decode = HTMLImageElement.prototype.decode;
  const setCanvasWidth = setter(HTMLCanvasElement, "width");
  const setCanvasHeight = setter(HTMLCanvasElement, "height");
  const getContext = HTMLCanvasElement.prototype.getContext;
  const toDataURL = HTMLCanvasElement.prototype.toDataURL;
  const setFillStyle = setter(CanvasRenderingContext2D, "fillStyle");
  const fillRect = CanvasRenderingContext2D.prototype.fillRect;
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  const ErrorEventType = ErrorEvent;
  const PromiseType = Promise;
  const now = performance.now.bind(performance);
  const later = setTimeout;
  const toStr = String;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const SHEET = "#ffffff"; // the paper every SVG is drawn on (its transparent parts show it)
  // CSP violation reports arrive as tasks after the refused request: wait this long for them.
  const SETTLE_MS = 50;
  const NOT_DECODED = "the SVG document could not be decoded as an image";

  let run = null; // the one render this page hosts (set by __watercolor.run)

  // Our own refusals read as they are; anything else as "TypeError: ...".
  class Refusal extends Error {}

  function describe(error) {
    try {
      if (error instanceof Refusal) return error.message;
      return error instanceof Error ? `${error.name}: ${error.message}` : `Uncaught ${toStr(error)}`;
    } catch {
      return "Uncaught exception (not printable)";
    }
  }

  // Records an error; the first one ends the render (later ones, until it reports, are kept).
  function fail(message) {
    if (!run) return;
    run.errors[run.errors.length] = message;
    finish(null);
  }

  function onError(event) {
    if (event instanceof ErrorEventType) fail(describe(event.error ?? event.message));
  }

  function onBlocked(event) {
    const what = event.blockedURI || "(inline)";
    fail(`network access refused by the sandbox: ${what} (${event.effectiveDirective})`);
  }

  addListener.call(window, "error", onError, true);
  addListener.call(window, "unhandledrejection", (event) => fail(describe(event.reason)), true);
  addListener.call(document, "securitypolicyviolation", onBlocked, true);
  window.name = ""; // the one piece of state a tab carries from one document to the next

  // "600", "600px" -> 600; anything else (percentages, other units, nothing) -> null.
  function pixels(value) {
    const match = /^\s*([0-9]*\.?[0-9]+)\s*(px)?\s*$/.exec(value ?? "");
    const number = match ? Number(match[1]) : NaN;
    return number > 0 ? number : null;
  }

  function viewBoxSize(value) {
    const numbers = toStr(value ?? "").trim().split(/[\s,]+/).map(Number);
    const [, , w, h] = numbers;
    return numbers.length === 4 && w > 0 && h > 0 ? [w, h] : null;
  }

  // The SVG's own drawing box: its viewBox, else its width and height in pixels, else none.
  // The root gets a viewBox (so that box is what fills the canvas) and the canvas's pixel size.
  function fitToCanvas(root, size, px) {
    const box = viewBoxSize(apply(getAttribute, root, ["viewBox"]));
    const width = pixels(apply(getAttribute, root, ["width"]));
    const height = pixels(apply(getAttribute, root, ["height"]));
    let declared = box && { size: box, by: "viewBox" };
    if (!declared && width && height) {
      declared = { size: [width, height], by: "width and height" };
      apply(setAttribute, root, ["viewBox", `0 0 ${width} ${height}`]);
    }
    if (!declared) {
      apply(setAttribute, root, ["viewBox", `0 0 ${size} ${size}`]);
      run.notes[run.notes.length] =
        `the SVG declares no size (no viewBox, nor width and height in pixels): it was drawn ` +
        `as a ${size}x${size} document`;
    } else if (declared.size[0] !== declared.size[1]) {
      run.notes[run.notes.length] =
        `the SVG declares a ${declared.size.join("x")} drawing (its ${declared.by}), not a ` +
        `square: it was scaled into the ${size}x${size} canvas as its preserveAspectRatio says ` +
        `(by default centred, with white margins)`;
    } else if (declared.size[0] !== size) {
      run.notes[run.notes.length] =
        `the SVG declares a ${declared.size.join("x")} drawing (its ${declared.by}), not ` +
        `${size}x${size}: it was scaled to fill the canvas`;
    }
    apply(setAttribute, root, ["width", toStr(px)]);
    apply(setAttribute, root, ["height", toStr(px)]);
  }

  // The reply's text, parsed (inert), checked to be SVG, sized to the canvas, and serialised.
  function sizedDocument(code, size, px) {
    if (typeof code !== "string") throw new Refusal(`${NOT_DECODED}: it is not text`);
    const parsed = apply(parseFromString, new Parser(), [code, "image/svg+xml"]);
    const problem = apply(findInDocument, parsed, ["*", "parsererror"])[0];
    if (problem) {
      // Chromium's report: <parsererror><h3>...</h3><div>error on line 1 at ...</div>...
      const line = apply(findInElement, problem, ["*", "div"])[0] ?? problem;
      const detail = toStr(line.textContent).replace(/\s+/g, " ").trim().slice(0, 300);
      throw new Refusal(`${NOT_DECODED}: it is not well-formed XML (${detail})`);
    }
    const root = parsed.documentElement;
    if (!root || root.namespaceURI !== SVG_NS || root.localName !== "svg") {
      const found = root ? `<${root.localName}> in namespace ${root.namespaceURI}` : "nothing";
      throw new Refusal(
        `${NOT_DECODED}: its root element is ${found}, not <svg xmlns="${SVG_NS}">`,
      );
    }
    fitToCanvas(root, size, px);
    return apply(serializeToString, new Serializer(), [parsed]);
  }

  // The document as an image (decode() settles either way: a broken one rejects, never hangs).
  async function loadImage(text) {
    const url = apply(createObjectURL, URL, [new BlobType([text], { type: "image/svg+xml" })]);
    const image = new ImageType();
    apply(setImageSrc, image, [url]);
    try {
      await apply(decode, image, []);
    } catch (error) {
      throw new Refusal(`${NOT_DECODED}: Chromium's decoder refused it (${describe(error)})`);
    } finally {
      apply(revokeObjectURL, URL, [url]);
    }
    return image;
  }

  // An opaque white sheet of px x px pixels with the image drawn over all of it; its PNG.
  function paint(image, px) {
    const canvas = apply(createElement, document, ["canvas"]);
    apply(setCanvasWidth, canvas, [px]);
    apply(setCanvasHeight, canvas, [px]);
    const context = apply(getContext, canvas, ["2d"]);
    apply(setFillStyle, context, [SHEET]);
    apply(fillRect, context, [0, 0, px, px]);
    apply(drawImage, context, [image, 0, 0, px, px]);
    try {
      return apply(toDataURL, canvas, ["image/png"]);
    } catch (error) {
      // Chromium taints a canvas an SVG image with a <foreignObject> was drawn on.
      throw new Refusal(
        `the SVG was drawn but its pixels cannot be read back (${describe(error)}): ` +
          "a <foreignObject> does that; draw with SVG shapes only",
      );
    }
  }

  async function render(options) {
    const px = Math.round(options.size * options.density);
    const image = await loadImage(sizedDocument(options.code, options.size, px));
    run.setupMs = now() - run.start; // parse and decode
    return paint(image, px);
  }

  // Ends the render, then gives late CSP refusals SETTLE_MS to arrive before reporting.
  function finish(png) {
    if (run.ended) return;
    run.ended = true;
    // A still image: one frame, whatever maxFrames says.
    const report = { errors: [], png, setupMs: run.setupMs, drawMs: now() - run.start, frames: 1 };
    later(() => {
      report.errors = apply(slice, run.errors, []);
      report.notes = apply(slice, run.notes, []);
      run.resolve(report);
    }, SETTLE_MS);
  }

  // Render `options.code` (one SVG document). `seed` does not apply (an SVG has no randomness)
  // nor does `maxFrames`: an image is one still frame, drawn at time 0 (where an animation's
  // first values already apply; the gate refuses animations).
  function start(options) {
    if (run) return PromiseType.reject(new Error("this document already rendered an SVG"));
    return new PromiseType((resolve) => {
      run = { errors: [], notes: [], ended: false, resolve, setupMs: 0, start: now() };
      render(options).then(finish, (error) => fail(describe(error)));
    });
  }

  Object.defineProperty(window, "__watercolor", { value: Object.freeze({ run: start }) });
})();
