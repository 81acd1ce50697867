// Three lemons in a bowl, painted plainly: single washes, hardly any bleed or grain.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#a7b8c9", 200);
  brush.beginShape(0);
  brush.vertex(-300, 50);
  brush.vertex(300, 50);
  brush.vertex(300, 300);
  brush.vertex(-300, 300);
  brush.endShape(CLOSE);

  brush.fill("#c9c6bf", 210);
  brush.beginShape(0.5);
  for (let a = 0; a <= PI; a += PI / 8) {
    brush.vertex(190 * cos(a), 110 + 85 * sin(a));
  }
  brush.endShape(CLOSE);

  for (const [x, y, r] of [[-85, 40, 70], [20, 20, 78], [105, 55, 62]]) {
    brush.fill("#f2cf3a", 220);
    brush.circle(x, y, r);
  }
}
