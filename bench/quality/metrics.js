'use strict';
// Distances and detection scores. Fingerprints arrive as Uint32Array words,
// `wordsPerText` words per text (1 for 32-bit, 2 for 64-bit, 4 for 128-bit).

function popcount32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

function hamming(words, wordsPerText, i, j) {
  let d = 0;
  const a = i * wordsPerText;
  const b = j * wordsPerText;
  for (let w = 0; w < wordsPerText; w++) d += popcount32(words[a + w] ^ words[b + w]);
  return d;
}

/**
 * Precision, recall and F1 of "duplicate iff distance <= k" for k = 0..kMax, from
 * histograms of positive and negative distances (index = distance).
 * precision is null where nothing is flagged (then F1 is 0).
 */
function scoreCurve(positiveHistogram, negativeHistogram, kMax) {
  const positives = positiveHistogram.reduce((a, b) => a + b, 0);
  const negatives = negativeHistogram.reduce((a, b) => a + b, 0);
  const curve = [];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k <= kMax; k++) {
    tp += positiveHistogram[k] || 0;
    fp += negativeHistogram[k] || 0;
    const precision = tp + fp === 0 ? null : tp / (tp + fp);
    const recall = positives === 0 ? null : tp / positives;
    const f1 = tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + (positives - tp));
    curve.push({ k, tp, fp, fn: positives - tp, tn: negatives - fp, precision, recall, f1 });
  }
  return curve;
}

/** The point of a curve with the highest F1 (the smallest k on ties). */
function bestPoint(curve) {
  let best = curve[0];
  for (const point of curve) if (point.f1 > best.f1) best = point;
  return best;
}

/** Value at quantile q (0..1) of a histogram, or null when it is empty. */
function histogramQuantile(histogram, q) {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let d = 0; d < histogram.length; d++) {
    seen += histogram[d];
    if (seen >= rank) return d;
  }
  return histogram.length - 1;
}

/**
 * Scores one method on one set.
 *   set: { bases: [...], variants: [{ base, kind, text }] }
 *   words/wordsPerText: fingerprints of bases (indexes 0..n-1) then variants (n..)
 *   bits: fingerprint width; kMax: largest k
 *   groups: names to report recall for, in order: a kind ('typo') or kind/detail
 *           ('boilerplate/header'); a variant counts in both of its groups
 */
function evaluateSet({ set, words, wordsPerText, bits, groups, kMax = 16 }) {
  const n = set.bases.length;
  const zero = () => new Array(bits + 1).fill(0);
  const byGroup = Object.fromEntries(groups.map((group) => [group, zero()]));
  const positiveHistogram = zero();
  set.variants.forEach((variant, v) => {
    const d = hamming(words, wordsPerText, variant.base, n + v);
    positiveHistogram[d]++;
    if (byGroup[variant.kind]) byGroup[variant.kind][d]++;
    if (variant.detail && byGroup[`${variant.kind}/${variant.detail}`]) byGroup[`${variant.kind}/${variant.detail}`][d]++;
  });
  const negativeHistogram = zero();
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) negativeHistogram[hamming(words, wordsPerText, i, j)]++;
  }
  const curve = scoreCurve(positiveHistogram, negativeHistogram, kMax);
  const kinds = {};
  for (const group of groups) {
    const histogram = byGroup[group];
    const count = histogram.reduce((a, b) => a + b, 0);
    const recall = [];
    let hit = 0;
    for (let k = 0; k <= kMax; k++) {
      hit += histogram[k];
      recall.push(count === 0 ? null : hit / count);
    }
    kinds[group] = {
      count,
      recall,
      median: histogramQuantile(histogram, 0.5),
      p90: histogramQuantile(histogram, 0.9),
      histogram,
    };
  }
  return {
    positives: set.variants.length,
    negatives: (n * (n - 1)) / 2,
    curve,
    best: bestPoint(curve),
    kinds,
    positiveDistance: {
      median: histogramQuantile(positiveHistogram, 0.5),
      p90: histogramQuantile(positiveHistogram, 0.9),
      max: histogramQuantile(positiveHistogram, 1),
    },
    negativeDistance: {
      min: histogramQuantile(negativeHistogram, 0),
      p001: histogramQuantile(negativeHistogram, 0.001),
      p01: histogramQuantile(negativeHistogram, 0.01),
      median: histogramQuantile(negativeHistogram, 0.5),
    },
    positiveHistogram,
    negativeHistogram,
  };
}

module.exports = { popcount32, hamming, scoreCurve, bestPoint, histogramQuantile, evaluateSet };
