// Three lemons in a pale bowl: a warm wall and a cool table washed wet, glazed yellows with
// ochre shade, a soft cast shadow, and a few leaves.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Wall and table, bleeding into each other along the edge.
  brush.fillBleed(0.55);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#e6cfa6", 150);
  slab(-300, 60);
  brush.fill("#a7b8c9", 150);
  slab(40, 300);

  // The bowl's shadow, then the bowl in two greys.
  brush.fillBleed(0.4);
  brush.fill("#7b7fa0", 110);
  brush.circle(40, 170, 150, true);
  brush.fill("#d9d6cf", 170);
  bowl(0, 110, 190);
  brush.fill("#9ea4b5", 120);
  bowl(15, 125, 150);

  // Leaves tucked behind the fruit.
  brush.fillBleed(0.3);
  brush.fillTexture(0.5, 0.5);
  brush.fill("#6f8c4f", 160);
  leaf(-60, 20, -2.4, 120);
  leaf(70, 10, -0.7, 110);

  // Lemons: a light yellow body, a deeper glaze, an ochre shaded side.
  const lemons = [[-85, 40, 70], [20, 20, 78], [105, 55, 62]];
  for (const [x, y, r] of lemons) {
    brush.fill("#f6dc5a", 180);
    brush.fillBleed(0.35);
    brush.fillTexture(0.5, 0.5);
    brush.circle(x, y, r, true);
    brush.fill("#eec12c", 150);
    brush.fillBleed(0.2);
    brush.circle(x + r * 0.15, y + r * 0.1, r * 0.75, true);
    brush.fill("#c08a2a", 120);
    brush.fillTexture(0.4, 0.8);
    brush.circle(x + r * 0.35, y + r * 0.35, r * 0.4, true);
  }
}

function slab(top, bottom) {
  brush.beginShape(0.3);
  brush.vertex(-330, top);
  brush.vertex(330, top + random(-20, 20));
  brush.vertex(330, bottom);
  brush.vertex(-330, bottom);
  brush.endShape(CLOSE);
}

// A bowl: a wide, shallow half-ellipse below `y`.
function bowl(x, y, w) {
  brush.beginShape(0.6);
  for (let a = 0; a <= PI; a += PI / 8) {
    brush.vertex(x + w * cos(a), y + w * 0.45 * sin(a));
  }
  brush.endShape(CLOSE);
}

function leaf(x, y, tilt, length) {
  const points = [[0, 0], [length * 0.45, -length * 0.22], [length, 0], [length * 0.45, length * 0.2]];
  brush.beginShape(0.5);
  for (const [px, py] of points) {
    brush.vertex(x + px * cos(tilt) - py * sin(tilt), y + px * sin(tilt) + py * cos(tilt));
  }
  brush.endShape(CLOSE);
}
