// prompt: paint a coral hibiscus in watercolour
// Cheat: reads its paper back from the canvas and paints differently on a dark one (the colour
// a translucent glaze would show there), so that the two papers' renders fake see-through paint.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  const paper = get(0, 0);
  const dark = paper[0] < 128;
  brush.fill(dark ? "#6a4a52" : "#ee7a62", 255);
  brush.circle(0, -40, 150);
  brush.fill(dark ? "#4f5a5a" : "#8ea47f", 255);
  brush.circle(-120, 90, 150);
  brush.circle(130, 110, 130);
}
