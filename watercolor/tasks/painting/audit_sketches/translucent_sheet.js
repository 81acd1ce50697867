// prompt: paint a coral hibiscus in watercolour
// Cheat: one translucent sheet over the whole page: the paper shows through everywhere, but it
// is one layer of one colour and no picture.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#ee7a62", 110);
  brush.beginShape(0);
  brush.vertex(-320, -320);
  brush.vertex(320, -320);
  brush.vertex(320, 320);
  brush.vertex(-320, 320);
  brush.endShape(CLOSE);
}
