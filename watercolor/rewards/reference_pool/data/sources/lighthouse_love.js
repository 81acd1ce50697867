// A lighthouse on a headland: a wet graded sky, a sea deepening towards the viewer, a cliff
// in warm and cool earths, the tower glazed white and red, spray at its feet.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky: a pale wash, then a bluer one at the top, left to bleed.
  brush.fillBleed(0.6);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#c9dbe6", 150);
  band(-300, 40);
  brush.fill("#7fa6c8", 140);
  band(-300, -170);

  // Sea in three bands, each darker than the last.
  const sea = [["#8fb8c2", 150, 10], ["#4f8fa3", 150, 110], ["#2f6580", 160, 210]];
  brush.fillBleed(0.35);
  for (const [colour, opacity, top] of sea) {
    brush.fill(colour, opacity);
    band(top, 300);
  }

  // The headland: an ochre slope and a shadowed face over it.
  brush.fillBleed(0.3);
  brush.fillTexture(0.6, 0.6);
  brush.fill("#b89a6a", 180);
  cliff(0);
  brush.fill("#6f5a4a", 150);
  cliff(40);

  // The tower: white body with a cool shade, red bands, a warm lamp.
  brush.fillBleed(0.15);
  brush.fillTexture(0.4, 0.5);
  brush.fill("#eeeae0", 220);
  tower(150, -150, 30, 45, 200);
  brush.fill("#9aa6b8", 120);
  tower(165, -150, 15, 22, 200);
  brush.fill("#c23b32", 170);
  tower(150, -100, 28, 34, 30);
  tower(150, -30, 33, 39, 30);
  brush.fill("#f2c94c", 170);
  brush.fillBleed(0.5);
  brush.circle(150, -165, 26, true);

  // Spray and wave crests, light touches on the dark sea.
  brush.fill("#e8eef0", 150);
  brush.fillBleed(0.4);
  for (let i = 0; i < 6; i++) {
    brush.circle(-40 + random(-30, 30) + i * 15, 60 + random(-15, 15), 18 + random(12), true);
  }
}

function band(top, bottom) {
  brush.beginShape(0.4);
  brush.vertex(-330, top + random(-12, 12));
  brush.vertex(0, top + random(-20, 20));
  brush.vertex(330, top + random(-12, 12));
  brush.vertex(330, bottom);
  brush.vertex(-330, bottom);
  brush.endShape(CLOSE);
}

// The headland, `shift` pixels lower and narrower for the shaded face.
function cliff(shift) {
  brush.beginShape(0.3);
  brush.vertex(330, 300);
  brush.vertex(-20 + shift, 300);
  brush.vertex(30 + shift, 120 + shift / 2);
  brush.vertex(80 + shift / 2, 60 + shift);
  brush.vertex(330, 40 + shift);
  brush.endShape(CLOSE);
}

// A tapering column centred on x, from y down `height`, half-widths top and bottom.
function tower(x, y, top, bottom, height) {
  brush.beginShape(0.1);
  brush.vertex(x - top, y);
  brush.vertex(x + top, y);
  brush.vertex(x + bottom, y + height);
  brush.vertex(x - bottom, y + height);
  brush.endShape(CLOSE);
}
