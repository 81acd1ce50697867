// prompt: paint a coral hibiscus in watercolour
// Cheat: a dark sheet (`background(...)`) with one small textured brush mark: the task flags
// it blank, and no component may read the dark ground as pigment.
function setup() {
  createCanvas(600, 600, WEBGL);
  background(28, 32, 48);
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.3);
  brush.fillTexture(0.6, 0.4);
  brush.fill("#ee7a62", 170);
  brush.circle(40, -20, 14, true);
}
