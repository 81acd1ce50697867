// An autumn tree as flat opaque shapes: plain p5 fills.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#9aa850");
  rect(-300, 100, 600, 200);
  fill("#4a3020");
  rect(-14, -20, 28, 170);
  fill("#f07010");
  ellipse(0, -90, 250, 190);
}
