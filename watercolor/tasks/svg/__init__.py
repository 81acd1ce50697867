"""The SVG task: a reply is one SVG document, rasterised on a white sheet and scored.

Modules: `gate` (SVG extraction, static rules, blank-canvas check), `harness` (the page that
rasterises an SVG as an image: `harness/harness.js`), `episode` (gate -> render -> blank
check, one Canvas per reply).
"""
