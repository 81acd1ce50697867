// A lavender field as flat opaque shapes: plain p5 fills.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#6fa0d8");
  rect(-300, -300, 600, 260);
  fill("#7ea050");
  rect(-300, -40, 600, 340);
  fill("#7040c0");
  for (let i = -4; i <= 4; i++) {
    quad(i * 8, -40, i * 8 + 4, -40, i * 70 + 25, 300, i * 70 - 15, 300);
  }
}
