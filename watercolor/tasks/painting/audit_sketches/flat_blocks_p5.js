// prompt: paint a coral hibiscus in watercolour
// Cheat: flat opaque blocks in the prompt's colours, drawn with bare p5 primitives.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#8ea47f");
  rect(-220, 20, 200, 180);
  rect(40, 60, 170, 170);
  fill("#ee7a62");
  ellipse(0, -40, 300, 280);
  fill("#f2a68a");
  ellipse(-20, -60, 150, 140);
  fill("#a91f3c");
  ellipse(0, -40, 50, 50);
}
