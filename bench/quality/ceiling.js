'use strict';
// What an ideal sketch could reach on a method's features and weights. For a SimHash whose
// bits behave like random hyperplanes, two texts differ in each of `bits` bits with
// probability theta/pi, theta the angle between their weighted feature vectors (Charikar
// 2002). For a 1-bit weighted MinHash whose bins are independent, a bit differs with
// probability (1 - J) x 3/8, J the chance that both texts' bin holders are the same feature
// (different holders give bits that are 1 with probability 1/4 each, so they differ with
// probability 2 x 1/4 x 3/4 = 3/8; see native/core/minhash_sketch.h): for
// an exponential race over the weights that is the probability Jaccard J_P (Moulton and
// Jiang 2018), which the default sketch's race (rank / weight, with densified bins)
// approximates. Either way the chance that a pair lands within k is a binomial tail. Averaged
// over the positive pairs, that is the recall at k of the best hashing of these features: a
// gap to the measured recall is the hashing's fault, the rest belongs to the features and weights.

/** P(X <= k) for X ~ Binomial(n, p). */
function binomialCdf(n, p, k) {
  if (k < 0) return 0;
  if (k >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  // Terms from ln C(n, i) + i ln p + (n - i) ln(1 - p), summed in order (n is at most 128 here).
  let sum = 0;
  let logChoose = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log((n - i + 1) / i);
    sum += Math.exp(logChoose + i * Math.log(p) + (n - i) * Math.log1p(-p));
  }
  return Math.min(1, sum);
}

/** A text's weighted feature vector from SimHash#tokens(): feature hash -> summed weight. */
function featureVector(tokens) {
  const vector = new Map();
  for (const { hash, weight } of tokens) vector.set(hash, (vector.get(hash) || 0) + weight);
  return vector;
}

/** Cosine of two feature vectors (0 when either is empty). */
function cosine(a, b) {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [hash, weight] of a) {
    normA += weight * weight;
    const other = b.get(hash);
    if (other !== undefined) dot += weight * other;
  }
  for (const weight of b.values()) normB += weight * weight;
  if (normA === 0 || normB === 0) return 0;
  return Math.max(-1, Math.min(1, dot / Math.sqrt(normA * normB)));
}

/** The probability that an ideal `bits`-bit SimHash puts two texts within k bits. */
function idealWithin(cos, bits, k) {
  return binomialCdf(bits, Math.acos(cos) / Math.PI, k);
}

/**
 * The probability Jaccard of two feature vectors: sum over shared features i of
 * 1 / sum_j max(a_j / a_i, b_j / b_i), in O(n log n) by sorting on a_j / b_j (0 when either is empty).
 */
function probabilityJaccard(a, b) {
  if (a.size === 0 || b.size === 0) return 0;
  const items = [];
  for (const [hash, x] of a) items.push({ x, y: b.get(hash) || 0 });
  for (const [hash, y] of b) if (!a.has(hash)) items.push({ x: 0, y });
  const ratio = ({ x, y }) => (y === 0 ? Infinity : x / y);
  items.sort((p, q) => ratio(p) - ratio(q) || 0);
  // Below position p (smaller ratio) a feature counts b_j / b_i, from p on a_j / a_i.
  const xFrom = new Float64Array(items.length + 1);
  for (let p = items.length - 1; p >= 0; p--) xFrom[p] = xFrom[p + 1] + items[p].x;
  let yBefore = 0;
  let sum = 0;
  for (let p = 0; p < items.length; p++) {
    const { x, y } = items[p];
    if (x > 0 && y > 0) sum += 1 / (xFrom[p] / x + yBefore / y);
    yBefore += y;
  }
  return Math.min(1, sum);
}

/** The chance that two different bin holders give different bits (each bit is 1 with probability 1/4). */
const MINHASH_BITS_DIFFER = 3 / 8;

/** The probability that an ideal `bits`-bit 1-bit MinHash puts two texts of probability Jaccard j within k bits. */
function idealWithinMinHash(j, bits, k) {
  return binomialCdf(bits, (1 - j) * MINHASH_BITS_DIFFER, k);
}

/**
 * Ideal and measured recall at k for one set.
 *   set: { bases, variants: [{ base, kind, detail? }] }
 *   vectors: featureVector of bases (0..n-1) then variants (n..)
 *   distances: measured Hamming distance of each variant to its base
 *   sketch: 'simhash' (the angle model) or 'minhash' (the probability-Jaccard model)
 * Returns { sketch, positives, ideal, measured, kinds: { kind: { count, ideal, measured } } }.
 */
function ceilingForSet({ set, vectors, distances, bits, k, sketch = 'simhash' }) {
  const n = set.bases.length;
  const ideal = (a, b) => (sketch === 'minhash' ? idealWithinMinHash(probabilityJaccard(a, b), bits, k) : idealWithin(cosine(a, b), bits, k));
  const kinds = {};
  let idealSum = 0;
  let measured = 0;
  set.variants.forEach((variant, v) => {
    const p = ideal(vectors[variant.base], vectors[n + v]);
    const hit = distances[v] <= k ? 1 : 0;
    idealSum += p;
    measured += hit;
    const kind = (kinds[variant.kind] ||= { count: 0, ideal: 0, measured: 0 });
    kind.count++;
    kind.ideal += p;
    kind.measured += hit;
  });
  const count = set.variants.length;
  for (const kind of Object.values(kinds)) {
    kind.ideal /= kind.count;
    kind.measured /= kind.count;
  }
  return { sketch, positives: count, ideal: count ? idealSum / count : null, measured: count ? measured / count : null, kinds };
}

module.exports = { binomialCdf, featureVector, cosine, idealWithin, probabilityJaccard, MINHASH_BITS_DIFFER, idealWithinMinHash, ceilingForSet };
