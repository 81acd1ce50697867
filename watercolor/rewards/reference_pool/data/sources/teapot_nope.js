// A teapot and a cup as flat opaque shapes: plain p5 fills.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#e0a870");
  rect(-300, -300, 600, 370);
  fill("#c8ccd0");
  rect(-300, 70, 600, 230);
  fill("#1a40a0");
  circle(-20, 80, 220);
  circle(-20, -40, 76);
  quad(-90, 80, -160, 10, -150, 0, -90, 50);
  fill("#ffffff");
  circle(200, 150, 84);
}
