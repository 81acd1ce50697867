// The in-page half of the renderer: runs one p5.js + p5.brush sketch on this page and reports.
//
// Loaded after p5.min.js and p5.brush.js, before any sketch code. Everything the report relies
// on (listeners, toDataURL, the p5 constructor, Reflect.apply) is saved here, so a sketch that
// later replaces window.onerror, console, addEventListener or canvas methods cannot hide its
// errors or forge its pixels through them. Python calls `__watercolor.run(options)` once per
// document and awaits the promise it returns; the Python side stays the authority on time,
// crashes, dialogs and network (see page.py).
(() => {
  "use strict";
  const P5 = window.p5;
  const apply = Reflect.apply;
  const slice = Array.prototype.slice;
  const addListener = EventTarget.prototype.addEventListener;
  const toDataURL = HTMLCanvasElement.prototype.toDataURL;
  const createCanvas = P5.prototype.createCanvas;
  const pixelDensity = P5.prototype.pixelDensity;
  const background = P5.prototype.background;
  const createElement = Document.prototype.createElement;
  const appendChild = Node.prototype.appendChild;
  const ErrorEventType = ErrorEvent;
  const GL1 = WebGLRenderingContext;
  const GL2 = WebGL2RenderingContext;
  const now = performance.now.bind(performance);
  const later = setTimeout;
  // CSP violation reports arrive as tasks after the refused request: wait this long for them.
  const SETTLE_MS = 50;
  const toStr = String;
  const SKETCH_FILE = "sketch.js";

  let run = null; // the one render this page hosts (set by __watercolor.run)

  // A fast, seedable PRNG (mulberry32) standing in for Math.random, so sketches that call
  // Math.random directly paint the same picture for the same seed.
  function seededRandom(seed) {
    let state = seed >>> 0;
    return function random() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // "TypeError: x is not a function (sketch.js:5:3)": the message plus where in the sketch.
  function describe(error, fallbackLine) {
    let text;
    try {
      text = error instanceof Error ? `${error.name}: ${error.message}` : `Uncaught ${toStr(error)}`;
      // A SyntaxError in the sketch's <script> arrives wrapped in the appendChild call.
      text = text.replace("Failed to execute 'appendChild' on 'Node': ", "");
    } catch {
      text = "Uncaught exception (not printable)";
    }
    let where = fallbackLine;
    try {
      const match = /sketch\.js:(\d+):(\d+)/.exec(toStr(error && error.stack));
      if (match) where = `${SKETCH_FILE}:${match[1]}:${match[2]}`;
    } catch {}
    return where ? `${text} (${where})` : text;
  }

  // Records an error; the first one ends the render (later ones, until it reports, are kept).
  function fail(message) {
    if (!run) return;
    run.errors[run.errors.length] = message;
    finish();
  }

  function onError(event) {
    if (!(event instanceof ErrorEventType)) return; // a failed <img>/<script> load: see onBlocked
    const inSketch = event.filename && event.filename.endsWith(SKETCH_FILE);
    const line = inSketch ? `${SKETCH_FILE}:${event.lineno}:${event.colno}` : "";
    fail(describe(event.error ?? event.message, line));
  }

  function onRejection(event) {
    fail(describe(event.reason, ""));
  }

  // The CSP refused a request (fetch, XHR, WebSocket, image, script, beacon, import, file://).
  function onBlocked(event) {
    const what = event.blockedURI || "(inline)";
    fail(`network access refused by the sandbox: ${what} (${event.effectiveDirective})`);
  }

  // location.href = ..., reload(), document.location = ...: the page would be replaced.
  function onLeave() {
    fail("the sketch tried to navigate away from or reload the page");
  }

  addListener.call(window, "error", onError, true);
  addListener.call(window, "unhandledrejection", onRejection, true);
  addListener.call(document, "securitypolicyviolation", onBlocked, true);
  addListener.call(window, "beforeunload", onLeave, true);
  window.name = ""; // the one piece of state a tab carries from one document to the next

  // The main canvas: always size x size CSS pixels at the configured density, WEBGL only,
  // so every render has the same shape and p5.brush (WEBGL-only) can paint on it.
  function guardedCreateCanvas(w, h, renderer, ...rest) {
    // p5's own default 100x100 canvas (made before setup runs) and other instances pass through.
    if (!run || this !== run.instance || !run.sketchStarted) {
      return apply(createCanvas, this, [w, h, renderer, ...rest]);
    }
    const limit = 2 * run.size;
    if (!(w <= limit && h <= limit)) {
      const size = `${run.size}x${run.size}`;
      throw new Error(`createCanvas(${w}, ${h}) is far larger than the ${size} canvas this renderer paints`);
    }
    if (renderer !== this.WEBGL) {
      throw new Error("p5.brush needs a WEBGL canvas: use createCanvas(width, height, WEBGL)");
    }
    const result = apply(createCanvas, this, [run.size, run.size, renderer, ...rest]);
    apply(pixelDensity, this, [run.density]);
    if (w !== run.size || h !== run.size) {
      run.notes[run.notes.length] =
        `createCanvas(${w}, ${h}) made a ${run.size}x${run.size} canvas: the renderer sets ` +
        "the canvas size (the drawing is centred, so it is cropped or padded)";
    }
    run.createdCanvas = true;
    return result;
  }

  // pixelDensity(n) from the sketch is ignored: the configured density decides the pixel count.
  function guardedPixelDensity(value) {
    if (run && this === run.instance && value !== undefined) return this;
    return apply(pixelDensity, this, [value]);
  }

  // The paper: what the sketch asks `background()` for is recorded (`papers` in the report, up
  // to MAX_PAPERS distinct RGBA colours), and with `options.paper` set every such call paints
  // that colour instead, so the same sketch can be painted again over another paper, nothing
  // else changed (watercolor.rewards.matting reads opacity from the pair).
  const MAX_PAPERS = 4;
  function guardedBackground(...args) {
    if (!run || this !== run.instance || !run.sketchStarted) return apply(background, this, args);
    const asked = apply(this.color, this, args)._getRGBA([255, 255, 255, 255]).map(Math.round);
    const key = asked.join(",");
    if (!run.paperKeys.includes(key) && run.paperKeys.length < MAX_PAPERS) {
      run.paperKeys[run.paperKeys.length] = key;
      run.papers[run.papers.length] = asked;
    }
    return apply(background, this, run.paper ? [run.paper] : args);
  }

  P5.prototype.createCanvas = guardedCreateCanvas;
  P5.prototype.pixelDensity = guardedPixelDensity;
  P5.prototype.background = guardedBackground;

  // No painted pixels reach the sketch's code: a sketch that could read the canvas back could
  // tell which paper it is painted on and paint differently on each (the harness keeps its own
  // toDataURL, saved above). Every route we know of from a WebGL canvas into JS values is
  // closed: readPixels (p5's get() and loadPixels() on a WEBGL canvas), encoding a canvas
  // (toDataURL, toBlob, convertToBlob), drawing a WebGL canvas into a 2D one (drawImage,
  // createPattern: p5 reads its own 2D images with getImageData, which stays), streams,
  // bitmaps and video frames. A side channel (timing) is not closed; the matting's residual
  // check catches a sketch that paints differently on the two papers all the same.
  function noReadback(name) {
    throw new Error(`reading pixels back (${name}) is not available to sketches in this renderer`);
  }
  function seal(owner, name, value) {
    Object.defineProperty(owner, name, { value, writable: false, configurable: false });
  }
  const glCanvases = new WeakSet();
  for (const Owner of [HTMLCanvasElement, OffscreenCanvas]) {
    const getContext = Owner.prototype.getContext;
    seal(Owner.prototype, "getContext", function (type, ...rest) {
      const context = apply(getContext, this, [type, ...rest]);
      if (context instanceof GL1 || context instanceof GL2) glCanvases.add(this);
      return context;
    });
  }
  for (const [owner, name] of [
    [GL1.prototype, "readPixels"],
    [GL2.prototype, "readPixels"],
    [HTMLCanvasElement.prototype, "toDataURL"],
    [HTMLCanvasElement.prototype, "toBlob"],
    [HTMLCanvasElement.prototype, "captureStream"],
    [OffscreenCanvas.prototype, "convertToBlob"],
    [OffscreenCanvas.prototype, "transferToImageBitmap"],
  ]) {
    seal(owner, name, () => noReadback(name));
  }
  for (const Context of [CanvasRenderingContext2D, OffscreenCanvasRenderingContext2D]) {
    for (const name of ["drawImage", "createPattern"]) {
      const original = Context.prototype[name];
      seal(Context.prototype, name, function (source, ...rest) {
        if (glCanvases.has(source)) noReadback(`${name} of a WEBGL canvas`);
        return apply(original, this, [source, ...rest]);
      });
    }
  }
  // background() in WEBGL sets the clear colour, which getParameter would hand back.
  const COLOR_CLEAR_VALUE = 0x0c22;
  for (const GL of [GL1, GL2]) {
    const getParameter = GL.prototype.getParameter;
    function guardedGetParameter(name) {
      if (name === COLOR_CLEAR_VALUE) noReadback("the clear colour");
      return apply(getParameter, this, [name]);
    }
    seal(GL.prototype, "getParameter", guardedGetParameter);
  }
  for (const name of ["createImageBitmap", "VideoFrame", "ImageCapture", "ImageDecoder"]) {
    seal(window, name, undefined);
  }

  const NO_CANVAS =
    "no canvas: the sketch never called createCanvas(width, height, WEBGL) in global mode " +
    "(p5 instance mode, new p5(...), is not supported: define function setup() instead)";

  // Our lifecycle hooks run after p5.brush's (registered earlier), i.e. after it flushed its
  // layers onto the canvas; only the no-canvas check goes first, to say plainly what went wrong
  // before p5.brush fails on the missing WEBGL canvas.
  P5.registerAddon((p5, fn, lifecycles) => {
    lifecycles.presetup = function () {
      if (run && !run.instance) run.instance = this; // hooks run inside the p5 constructor
      if (!run || this !== run.instance) return;
      this.randomSeed(run.seed);
      this.noiseSeed(run.seed);
    };
    lifecycles.postsetup = function () {
      if (!run || this !== run.instance) return;
      run.setupMs = now() - run.start;
      if (typeof window.draw !== "function") finish();
    };
    lifecycles.postdraw = function () {
      if (!run || this !== run.instance) return;
      if (this.frameCount >= run.maxFrames || !this._loop) {
        this.noLoop();
        finish();
      }
    };
  });
  P5.lifecycleHooks.postsetup.unshift(function () {
    if (run && this === run.instance && !run.createdCanvas) fail(NO_CANVAS);
  });

  function readCanvas() {
    const canvas = run.instance._renderer && run.instance._renderer.canvas;
    if (!run.createdCanvas || !canvas) return { error: NO_CANVAS };
    const context = run.instance._renderer.drawingContext;
    if (!(context instanceof GL1 || context instanceof GL2)) {
      return { error: "the canvas is not a WEBGL canvas" };
    }
    const expected = Math.round(run.size * run.density);
    if (canvas.width !== expected || canvas.height !== expected) {
      const got = `${canvas.width}x${canvas.height}`;
      return { error: `the canvas is ${got} pixels, expected ${expected}x${expected}` };
    }
    return { png: apply(toDataURL, canvas, ["image/png"]) };
  }

  // Ends the render: stop the loop, read the pixels now (same task as the last frame, so the
  // WebGL buffer is intact), then give late CSP refusals SETTLE_MS to arrive before reporting.
  function finish() {
    if (run.ended) return;
    run.ended = true;
    const report = { errors: [], png: null, setupMs: run.setupMs, drawMs: 0, frames: 0, papers: [] };
    try {
      if (run.instance) {
        report.frames = run.instance.frameCount;
        run.instance._loop = false;
      }
      // A sketch that threw keeps what it painted before (a reward may pay for it, or not);
      // one that made no canvas of its own reports only its error.
      if (!run.errors.length || run.createdCanvas) {
        const pixels = readCanvas();
        if (pixels.error && !run.errors.length) run.errors[run.errors.length] = pixels.error;
        else if (!pixels.error) report.png = pixels.png;
      }
    } catch (error) {
      run.errors[run.errors.length] = describe(error, "");
    }
    report.drawMs = now() - run.start;
    later(() => {
      report.errors = apply(slice, run.errors, []);
      report.notes = apply(slice, run.notes, []);
      report.papers = apply(slice, run.papers, []);
      run.resolve(report);
    }, SETTLE_MS);
  }

  // Marks when the sketch's own code starts, so p5's default canvas is not taken for the sketch's.
  function wrapEntryPoint(name) {
    const user = window[name];
    if (typeof user !== "function") return;
    window[name] = function (...args) {
      run.sketchStarted = true;
      return apply(user, this, args);
    };
  }

  // Run `options.code` as a classic script (so top-level declarations are globals, as in p5
  // global mode), then start p5. Resolves with {errors, png, setupMs, drawMs, frames}.
  function start(options) {
    if (run) return Promise.reject(new Error("this document already ran a sketch"));
    return new Promise((resolve) => {
      const fresh = { errors: [], notes: [], papers: [], paperKeys: [], ended: false, sketchStarted: false, createdCanvas: false };
      run = { ...options, ...fresh, resolve, instance: null, setupMs: 0, start: now() };
      Math.random = seededRandom(options.seed);
      const script = apply(createElement, document, ["script"]);
      script.textContent = `${options.code}\n//# sourceURL=${SKETCH_FILE}`;
      apply(appendChild, document.head, [script]);
      if (run.ended) return;
      if (typeof window.setup !== "function" && typeof window.draw !== "function") {
        fail("the sketch defines neither setup() nor draw()");
        return;
      }
      for (const name of ["setup", "draw"]) wrapEntryPoint(name);
      run.start = now();
      let instance;
      try {
        instance = new P5();
      } catch (error) {
        // p5 global mode binds its functions onto window; a top-level declaration of the same
        // name (e.g. `function dot() {}`) makes that throw. The sketch's fault, not ours.
        fail(`p5 could not start this sketch: ${error && error.name}: ${error && error.message}`);
        return;
      }
      run.instance = run.instance || instance;
    });
  }

  Object.defineProperty(window, "__watercolor", { value: Object.freeze({ run: start }) });
})();
