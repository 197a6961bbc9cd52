/* Wycheproof ML-DSA verify cases liboqs 0.13.0 gets wrong where it runs the AVX2 code of
 * pq-crystals/dilithium it vendors (src/sig/ml_dsa/pqcrystals-dilithium-standard_*_avx2, chosen at
 * run time on a CPU with AVX2 and POPCNT). That verifier does not check the infinity norm of z
 * (FIPS 204, Algorithm 8, line 13), so signatures with a coefficient of z out of range verify
 * ("violate index ... in the positive / negative direction", "index ... is exactly ..."); and its
 * use_hint tests a0 >= 0 where FIPS 204 has a0 > 0, so valid signatures that call use_hint(1, 0)
 * are refused. Both were fixed in pq-crystals/dilithium in June 2026 (issue #113), after liboqs
 * 0.13.0; liboqs' portable reference code of the same algorithm passes every case. Included by
 * tests/test_driver.c for the liboqs binary only, and used only while that AVX2 code is the one
 * running (known_deviations_active() there). */
#ifndef CB_KNOWN_DEVIATIONS_LIBOQS_H
#define CB_KNOWN_DEVIATIONS_LIBOQS_H

#define ML_DSA_44(n) "wycheproof/mldsa_44_verify_test.json#" #n
#define ML_DSA_65(n) "wycheproof/mldsa_65_verify_test.json#" #n
#define ML_DSA_87(n) "wycheproof/mldsa_87_verify_test.json#" #n

static const char *const KNOWN_DEVIATIONS[] = {
    /* ML-DSA-44: 38 cases */
    ML_DSA_44(81), ML_DSA_44(82), ML_DSA_44(83), ML_DSA_44(84), ML_DSA_44(85), ML_DSA_44(86),
    ML_DSA_44(87), ML_DSA_44(88), ML_DSA_44(89), ML_DSA_44(90), ML_DSA_44(91), ML_DSA_44(92),
    ML_DSA_44(94), ML_DSA_44(96), ML_DSA_44(97), ML_DSA_44(98), ML_DSA_44(99), ML_DSA_44(101),
    ML_DSA_44(102), ML_DSA_44(103), ML_DSA_44(104), ML_DSA_44(105), ML_DSA_44(106), ML_DSA_44(108),
    ML_DSA_44(109), ML_DSA_44(110), ML_DSA_44(111), ML_DSA_44(112), ML_DSA_44(113), ML_DSA_44(114),
    ML_DSA_44(115), ML_DSA_44(116), ML_DSA_44(117), ML_DSA_44(118), ML_DSA_44(120), ML_DSA_44(125),
    ML_DSA_44(126), ML_DSA_44(147),
    /* ML-DSA-65: 42 cases */
    ML_DSA_65(84), ML_DSA_65(85), ML_DSA_65(86), ML_DSA_65(87), ML_DSA_65(88), ML_DSA_65(90),
    ML_DSA_65(91), ML_DSA_65(92), ML_DSA_65(93), ML_DSA_65(94), ML_DSA_65(95), ML_DSA_65(97),
    ML_DSA_65(98), ML_DSA_65(99), ML_DSA_65(102), ML_DSA_65(103), ML_DSA_65(104), ML_DSA_65(106),
    ML_DSA_65(109), ML_DSA_65(110), ML_DSA_65(111), ML_DSA_65(112), ML_DSA_65(113), ML_DSA_65(114),
    ML_DSA_65(115), ML_DSA_65(116), ML_DSA_65(117), ML_DSA_65(118), ML_DSA_65(120), ML_DSA_65(121),
    ML_DSA_65(122), ML_DSA_65(124), ML_DSA_65(125), ML_DSA_65(126), ML_DSA_65(127), ML_DSA_65(128),
    ML_DSA_65(129), ML_DSA_65(130), ML_DSA_65(131), ML_DSA_65(132), ML_DSA_65(139), ML_DSA_65(161),
    /* ML-DSA-87: 50 cases */
    ML_DSA_87(79), ML_DSA_87(80), ML_DSA_87(81), ML_DSA_87(82), ML_DSA_87(83), ML_DSA_87(84),
    ML_DSA_87(85), ML_DSA_87(86), ML_DSA_87(87), ML_DSA_87(88), ML_DSA_87(89), ML_DSA_87(90),
    ML_DSA_87(91), ML_DSA_87(92), ML_DSA_87(93), ML_DSA_87(94), ML_DSA_87(95), ML_DSA_87(96),
    ML_DSA_87(98), ML_DSA_87(99), ML_DSA_87(101), ML_DSA_87(102), ML_DSA_87(105), ML_DSA_87(106),
    ML_DSA_87(108), ML_DSA_87(109), ML_DSA_87(110), ML_DSA_87(117), ML_DSA_87(118), ML_DSA_87(119),
    ML_DSA_87(121), ML_DSA_87(123), ML_DSA_87(125), ML_DSA_87(126), ML_DSA_87(127), ML_DSA_87(130),
    ML_DSA_87(131), ML_DSA_87(132), ML_DSA_87(134), ML_DSA_87(138), ML_DSA_87(140), ML_DSA_87(141),
    ML_DSA_87(142), ML_DSA_87(143), ML_DSA_87(144), ML_DSA_87(145), ML_DSA_87(146), ML_DSA_87(151),
    ML_DSA_87(152), ML_DSA_87(174), NULL};

#endif
