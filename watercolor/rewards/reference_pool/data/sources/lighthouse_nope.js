// A lighthouse as flat opaque blocks: plain p5 fills.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#86b3d6");
  rect(-300, -300, 600, 340);
  fill("#1f5f80");
  rect(-300, 40, 600, 260);
  fill("#8a6a40");
  quad(300, 300, 0, 300, 80, 60, 300, 40);
  fill("#ffffff");
  rect(120, -150, 60, 210);
  fill("#d01a10");
  rect(120, -100, 60, 30);
  rect(120, -30, 60, 30);
}
