// prompt: paint a coral hibiscus in watercolour
// Cheat: paints real washes, then throws (a helper that was never written).
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.3);
  brush.fillTexture(0.5, 0.4);
  brush.fill("#ee7a62", 150);
  brush.circle(-40, -20, 120, true);
  brush.fill("#8ea47f", 140);
  brush.circle(60, 80, 90, true);
  brush.fill("#a91f3c", 160);
  brush.circle(-20, -10, 40, true);
  addStamens(0, 0);
}
