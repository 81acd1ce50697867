// prompt: paint a cobalt teapot in watercolour
// Genuine: a cobalt teapot on a table. A warm wall and table, the cast shadow, the pot's body
// in a pale blue wash, then its shaded side, spout, lid and handle glazed darker on top.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  brush.fillTexture(0.5, 0.2);
  brush.fillBleed(0.4);
  slab(-280, 110, "#e9c9a8", 100);
  slab(90, 280, "#c8a878", 140);

  // Cast shadow, cool and soft.
  brush.fill("#566577", 100);
  brush.fillBleed(0.35);
  brush.beginShape(0.8);
  brush.vertex(-150, 150);
  brush.vertex(180, 120);
  brush.vertex(240, 170);
  brush.vertex(-100, 200);
  brush.endShape(CLOSE);

  // Body: pale wash, then the shaded right side and a darker core shadow.
  brush.fillTexture(0.6, 0.6);
  brush.fillBleed(0.25);
  brush.fill("#2e8ac4", 130);
  brush.circle(0, 40, 130, true);
  brush.fill("#1f4f9e", 140);
  brush.fillBleed(0.2);
  brush.circle(40, 55, 95, true);
  brush.fill("#37408c", 120);
  brush.circle(70, 75, 50, true);

  // Spout, handle and lid.
  brush.fill("#1f4f9e", 150);
  shape([[-110, 30], [-200, -60], [-185, -70], [-95, 0]]);
  shape([[110, -10], [180, -20], [185, 80], [110, 90], [125, 65], [160, 55], [155, 10], [115, 20]]);
  brush.fill("#2e8ac4", 160);
  shape([[-70, -80], [70, -80], [50, -110], [-50, -110]]);
  brush.fill("#37408c", 180);
  brush.circle(0, -120, 14, true);

  // A warm reflection of the table on the belly.
  brush.fill("#c8892e", 90);
  brush.fillBleed(0.4);
  brush.circle(-30, 140, 40, true);
}

// A horizontal slab of colour between two heights.
function slab(top, bottom, colour, opacity) {
  brush.fill(colour, opacity);
  shape([[-320, top], [320, top], [320, bottom], [-320, bottom]]);
}

// A closed wash through the given points.
function shape(points) {
  brush.beginShape(0.5);
  for (const [x, y] of points) {
    brush.vertex(x, y);
  }
  brush.endShape(CLOSE);
}
