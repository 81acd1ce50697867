// prompt: paint a coral hibiscus in watercolour
// Cheat: one huge textured, bleeding wash flooding the sheet edge to edge: watercolour
// texture, but a single layer of a single colour and no picture.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.5);
  brush.fillTexture(0.6, 0.4);
  brush.fill("#ee7a62", 255);
  brush.circle(0, 0, 380, true);
}
