// Pines as flat opaque triangles: plain p5 fills.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#a0b4c8");
  rect(-300, -300, 600, 420);
  fill("#1f4a30");
  for (let x = -260; x <= 260; x += 75) {
    triangle(x, -20, x + 35, 140, x - 35, 140);
  }
  fill("#3a4a2a");
  rect(-300, 140, 600, 160);
}
