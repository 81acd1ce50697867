// Red poppies as flat opaque shapes: plain p5 fills, no washes at all.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#8fb4d0");
  rect(-300, -300, 600, 320);
  fill("#7aa04a");
  rect(-300, 20, 600, 280);
  fill("#3f5f2f");
  for (const x of [-150, 60, 190, -40]) {
    rect(x - 3, 0, 6, 300);
  }
  for (const [x, y, r] of [[-150, -10, 70], [60, 40, 85], [190, -60, 55], [-40, 150, 50]]) {
    fill("#e0281c");
    circle(x, y, r * 1.6);
    fill("#1e1a20");
    circle(x, y, r * 0.3);
  }
}
