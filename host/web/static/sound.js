// Move and capture sounds, synthesised with WebAudio (no files to fetch): a short wooden
// knock for a move, two quick knocks a little lower for a capture. Off until the viewer
// turns them on (remembered per browser); the audio context starts on that click, as
// browsers ask.
"use strict";

class Sounds {
  constructor() {
    this.context = null;
    this.on = false;
  }

  enable(on) {
    this.on = on;
    if (on && !this.context) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (Context) this.context = new Context();
    }
    if (on && this.context && this.context.state === "suspended") this.context.resume();
  }

  // One knock: a sine that drops in pitch, with a quick attack and decay.
  knock(at, frequency) {
    const audio = this.context;
    const tone = audio.createOscillator();
    const level = audio.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(frequency, at);
    tone.frequency.exponentialRampToValueAtTime(frequency * 0.6, at + 0.09);
    level.gain.setValueAtTime(0.0001, at);
    level.gain.exponentialRampToValueAtTime(0.35, at + 0.005);
    level.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
    tone.connect(level).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.13);
  }

  // A move was played (`capture`: it took pieces).
  play(capture) {
    if (!this.on || !this.context) return;
    const now = this.context.currentTime;
    if (capture) {
      this.knock(now, 520);
      this.knock(now + 0.09, 390);
    } else {
      this.knock(now, 660);
    }
  }
}
