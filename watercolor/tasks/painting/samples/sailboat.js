// A turquoise sea with a small sailboat: a pale sky, the sea in overlapping bands that
// deepen towards the viewer, broken wave crests, and the boat's sails and hull on top.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky, wet and loose, with a warm glow near the horizon.
  brush.fillTexture(0.5, 0.2);
  brush.fillBleed(0.6);
  brush.fill("#a9c6e0", 140);
  brush.circle(-120, -220, 200, true);
  brush.fill("#f2a68a", 100);
  brush.circle(160, -60, 120, true);

  // The sea in bands, light at the horizon and darker towards us.
  const sea = ["#8fd0c8", "#2aa9a6", "#1d6f72"];
  brush.fillBleed(0.3);
  brush.fillTexture(0.6, 0.5);
  for (let i = 0; i < sea.length; i++) {
    brush.fill(sea[i], 140 + 15 * i);
    brush.beginShape(0.5);
    brush.vertex(-330, -10 + i * 90);
    for (let x = -240; x <= 330; x += 95) {
      brush.vertex(x, -10 + i * 90 + 14 * sin(x * 0.03 + i));
    }
    brush.vertex(330, 330);
    brush.vertex(-330, 330);
    brush.endShape(CLOSE);
  }

  // Wave crests: small, dark, separate strokes of colour.
  brush.fill("#1f4f9e", 130);
  brush.fillBleed(0.1);
  for (let i = 0; i < 14; i++) {
    const x = random(-280, 280);
    const y = random(40, 280);
    brush.beginShape(0.8);
    brush.vertex(x - 30, y);
    brush.vertex(x, y - 8);
    brush.vertex(x + 30, y);
    brush.vertex(x, y - 3);
    brush.endShape(CLOSE);
  }

  // The boat: hull, a cool-shadowed mainsail, a warm jib, and the hull's reflection.
  brush.fillTexture(0.3, 0.6);
  brush.fill("#ad4f26", 190);
  shape([[-70, 60], [80, 60], [55, 90], [-50, 90]], 0.2);
  brush.fill("#b7c2cc", 170);
  shape([[0, 50], [0, -170], [75, 50]], 0.1);
  brush.fill("#e9c9a8", 200);
  shape([[-8, 45], [-8, -140], [-70, 45]], 0.1);
  brush.fill("#ad4f26", 90);
  brush.fillBleed(0.4);
  shape([[-50, 95], [55, 95], [30, 130], [-30, 125]], 0.6);
}

// A closed wash through the given points.
function shape(points, curvature) {
  brush.beginShape(curvature);
  for (const [x, y] of points) {
    brush.vertex(x, y);
  }
  brush.endShape(CLOSE);
}
