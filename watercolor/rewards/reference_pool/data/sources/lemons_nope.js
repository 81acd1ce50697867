// Three lemons in a bowl as flat opaque shapes: plain p5 fills.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#e3c48e");
  rect(-300, -300, 600, 350);
  fill("#8fa3b8");
  rect(-300, 50, 600, 250);
  fill("#bdbab3");
  arc(0, 110, 380, 170, 0, PI);
  fill("#f2d21c");
  for (const [x, y, r] of [[-85, 40, 70], [20, 20, 78], [105, 55, 62]]) {
    ellipse(x, y, r * 2.2, r * 1.7);
  }
}
