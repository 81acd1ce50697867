// A moonlit lake as flat opaque shapes: plain p5 fills.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#202a70");
  rect(-300, -300, 600, 370);
  fill("#ffffc0");
  circle(110, -150, 76);
  fill("#101830");
  quad(-300, 70, -150, -20, 150, -10, 300, 70);
  fill("#182060");
  rect(-300, 70, 600, 230);
}
