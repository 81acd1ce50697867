// prompt: paint a coral hibiscus in watercolour
// Cheat: a smooth sky-like gradient ground drawn edge to edge with bare p5 lines, then one
// small brush wash: a background, not layered pigment (the anchor's gate refuses the lines).
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  for (let y = -300; y < 300; y++) {
    const t = (y + 300) / 600;
    stroke(lerp(236, 120, t), lerp(228, 160, t), lerp(214, 210, t));
    line(-300, y, 300, y);
  }
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillTexture(0.6, 0.4);
  brush.fillBleed(0.4);
  brush.fill("#ee7a62", 150);
  brush.circle(-30, 20, 30, true);
}
