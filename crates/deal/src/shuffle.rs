//! The verifiable shuffle: re-encrypt, permute, and prove in zero knowledge
//! that the output deck is a permutation of re-encryptions of the input deck.
//!
//! The proof is Terelius–Wikström's (TW10), in the form the CHVote
//! specification gives it (algorithms GenShuffleProof / CheckShuffleProof),
//! written additively: a Pedersen commitment to the permutation matrix, a
//! chain of commitments that proves the committed matrix is a permutation,
//! and one Schnorr-like proof tying both to the re-encryption. SPEC 5.6 has
//! the statement, the transcript bytes and the verification equations.

use curve25519_dalek::ristretto::{RistrettoBasepointTable, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{MultiscalarMul, VartimeMultiscalarMul};
use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::DealError;
use crate::elgamal::{CIPHERTEXT_LEN, Ciphertext, Deck, read_count};
use crate::group::{
    Context, Element, NonceSource, Transcript, decode_scalar, generators, mul_base,
};
use crate::keys::{DeckKey, SecretShare};

/// Domain of the shuffle statement digest (SPEC 5.6).
pub const SHUFFLE_STATEMENT_DOMAIN: &[u8] = b"roundtable/deal/shuffle-statement/v1";
/// Domain of the seed of the per-position challenges u_j (SPEC 5.6).
pub const SHUFFLE_U_SEED_DOMAIN: &[u8] = b"roundtable/deal/shuffle-u-seed/v1";
/// Domain of one per-position challenge u_j (SPEC 5.6).
pub const SHUFFLE_U_DOMAIN: &[u8] = b"roundtable/deal/shuffle-u/v1";
/// Domain of the shuffle proof's Fiat–Shamir challenge (SPEC 5.6).
pub const SHUFFLE_CHALLENGE_DOMAIN: &[u8] = b"roundtable/deal/shuffle-challenge/v1";

/// A seat's shuffle: the output deck and the proof that it is a permutation
/// of re-encryptions of the input deck under the deck key.
///
/// Encoding (SPEC 5.6), for a deck of n cards, `192·n + 162` bytes:
/// `n as u16 LE || output deck (n × 64) || C_0..C_{n-1} (n × 32) ||
/// Ĉ_1..Ĉ_n (n × 32) || c || s_1 || s_2 || s_3 || s_4 || ŝ_0..ŝ_{n-1} (n × 32) ||
/// s'_0..s'_{n-1} (n × 32)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShuffleMessage {
    output: Deck,
    commitments: Vec<Element>,
    chain: Vec<Element>,
    challenge: Scalar,
    responses: [Scalar; 4],
    chain_responses: Vec<Scalar>,
    permutation_responses: Vec<Scalar>,
}

/// The statement digest: `SHA-512(domain || context || K || n as u16 LE ||
/// input deck's ciphertexts || output deck's ciphertexts)`.
fn statement_digest(
    context: &Context,
    key: &DeckKey,
    input: &Deck,
    output: &[Ciphertext],
) -> [u8; 64] {
    let mut t = Transcript::new(SHUFFLE_STATEMENT_DOMAIN);
    t.bytes(&context.to_bytes())
        .element(&key.0)
        .bytes(&(input.len() as u16).to_le_bytes());
    for c in input.ciphertexts().iter().chain(output) {
        t.element(&c.a).element(&c.b);
    }
    t.digest()
}

/// The per-position challenges u_0..u_{n-1}, from the statement and the
/// permutation commitments.
fn position_challenges(statement: &[u8; 64], commitments: &[Element]) -> Vec<Scalar> {
    let mut t = Transcript::new(SHUFFLE_U_SEED_DOMAIN);
    t.bytes(statement);
    for c in commitments {
        t.element(c);
    }
    let seed = t.digest();
    (0..commitments.len() as u32)
        .map(|j| {
            let mut t = Transcript::new(SHUFFLE_U_DOMAIN);
            t.bytes(&seed).bytes(&j.to_le_bytes());
            t.challenge()
        })
        .collect()
}

/// The commitments the challenge covers, in transcript order.
struct ProofCommitments<'a> {
    t1: RistrettoPoint,
    t2: RistrettoPoint,
    t3: RistrettoPoint,
    t4a: RistrettoPoint,
    t4b: RistrettoPoint,
    t_hat: &'a [RistrettoPoint],
}

fn shuffle_challenge(
    statement: &[u8; 64],
    commitments: &[Element],
    chain: &[Element],
    t: &ProofCommitments<'_>,
) -> Scalar {
    let mut tr = Transcript::new(SHUFFLE_CHALLENGE_DOMAIN);
    tr.bytes(statement);
    for c in commitments.iter().chain(chain) {
        tr.element(c);
    }
    for p in [t.t1, t.t2, t.t3, t.t4a, t.t4b].iter().chain(t.t_hat) {
        tr.bytes(p.compress().as_bytes());
    }
    tr.challenge()
}

impl ShuffleMessage {
    /// Shuffles `input` under `key` as the seat of `context`: a uniformly
    /// random permutation, fresh re-encryption of every card, and the proof.
    /// Every secret comes from a ChaCha20 stream seeded by hashing the seat's
    /// secret key share, the statement and 32 bytes of `rng` (SPEC 5.3): a
    /// broken random source then still gives a permutation that only the
    /// holder of `secret` could predict.
    pub fn shuffle(
        context: &Context,
        key: &DeckKey,
        input: &Deck,
        secret: &SecretShare,
        rng: &mut impl CryptoRng,
    ) -> ShuffleMessage {
        let n = input.len();
        let pre_statement = statement_digest(context, key, input, &[]);
        let mut secrets = NonceSource::new(secret.scalar(), &pre_statement, rng);

        // psi[i] is the input slot that output slot i comes from (Fisher–Yates).
        let mut psi: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = secrets.below(i as u32 + 1) as usize;
            psi.swap(i, j);
        }
        let message = ShuffleMessage::prove(context, key, input, &psi, &mut secrets);
        psi.zeroize();
        message
    }

    /// The prover for the map `psi` (output slot i takes input slot
    /// `psi[i]`). Honest callers pass a permutation; the tests also pass
    /// maps that are not one, as a cheating prover would, to see the proof
    /// fail.
    fn prove(
        context: &Context,
        key: &DeckKey,
        input: &Deck,
        psi: &[usize],
        secrets: &mut NonceSource,
    ) -> ShuffleMessage {
        let n = input.len();
        let gens = generators();

        // Re-encryption factors r'_j, indexed by input slot.
        let key_table = RistrettoBasepointTable::create(&key.0.point);
        let mut reencryption: Vec<Scalar> = (0..n).map(|_| secrets.scalar()).collect();
        let output: Vec<Ciphertext> = psi
            .iter()
            .map(|&j| {
                let source = &input.ciphertexts()[j];
                let r = &reencryption[j];
                Ciphertext {
                    a: Element::new(source.a.point + mul_base(r)),
                    b: Element::new(source.b.point + r * &key_table),
                }
            })
            .collect();

        // Commitments to the matrix of psi, column by column:
        // C_j = r_j·G + Σ_{i: psi(i) = j} H_i, which for a permutation is
        // C_{psi(i)} = r_{psi(i)}·G + H_i.
        let mut commitment_blinds: Vec<Scalar> = (0..n).map(|_| secrets.scalar()).collect();
        let mut commitment_points: Vec<RistrettoPoint> =
            commitment_blinds.iter().map(mul_base).collect();
        for (i, &j) in psi.iter().enumerate() {
            commitment_points[j] += gens.h_list[i];
        }
        let commitments: Vec<Element> = commitment_points.into_iter().map(Element::new).collect();

        let statement = statement_digest(context, key, input, &output);
        let u = position_challenges(&statement, &commitments);
        let mut u_permuted: Vec<Scalar> = psi.iter().map(|&j| u[j]).collect();

        // Commitment chain: Ĉ_0 = H, Ĉ_{i+1} = r̂_i·G + u'_i·Ĉ_i.
        let mut chain_blinds: Vec<Scalar> = (0..n).map(|_| secrets.scalar()).collect();
        let mut chain_points = Vec::with_capacity(n);
        let mut previous = gens.h;
        for i in 0..n {
            let next = mul_base(&chain_blinds[i]) + u_permuted[i] * previous;
            chain_points.push(next);
            previous = next;
        }
        let chain: Vec<Element> = chain_points.iter().copied().map(Element::new).collect();

        let mut omega: [Scalar; 4] = std::array::from_fn(|_| secrets.scalar());
        let mut omega_hat: Vec<Scalar> = (0..n).map(|_| secrets.scalar()).collect();
        let mut omega_prime: Vec<Scalar> = (0..n).map(|_| secrets.scalar()).collect();

        let t1 = mul_base(&omega[0]);
        let t2 = mul_base(&omega[1]);
        let t3 =
            mul_base(&omega[2]) + RistrettoPoint::multiscalar_mul(&omega_prime, &gens.h_list[..n]);
        let t4a = RistrettoPoint::multiscalar_mul(
            omega_prime.iter().chain([&-omega[3]]),
            output.iter().map(|c| c.a.point).chain([gens.g]),
        );
        let t4b = RistrettoPoint::multiscalar_mul(
            omega_prime.iter().chain([&-omega[3]]),
            output.iter().map(|c| c.b.point).chain([key.0.point]),
        );
        let t_hat: Vec<RistrettoPoint> = (0..n)
            .map(|i| {
                let previous = if i == 0 { gens.h } else { chain_points[i - 1] };
                mul_base(&omega_hat[i]) + omega_prime[i] * previous
            })
            .collect();
        let challenge = shuffle_challenge(
            &statement,
            &commitments,
            &chain,
            &ProofCommitments {
                t1,
                t2,
                t3,
                t4a,
                t4b,
                t_hat: &t_hat,
            },
        );

        // v_i = u'_{i+1}·…·u'_{n-1}, so that Ĉ_n = (Σ r̂_i·v_i)·G + (Π u'_i)·H.
        let mut v = vec![Scalar::ONE; n];
        for i in (0..n.saturating_sub(1)).rev() {
            v[i] = u_permuted[i + 1] * v[i + 1];
        }
        let mut witness_sums: [Scalar; 4] = [
            commitment_blinds.iter().sum(),
            chain_blinds.iter().zip(&v).map(|(r, v)| r * v).sum(),
            commitment_blinds.iter().zip(&u).map(|(r, u)| r * u).sum(),
            reencryption.iter().zip(&u).map(|(r, u)| r * u).sum(),
        ];
        let responses = std::array::from_fn(|i| omega[i] - challenge * witness_sums[i]);
        let chain_responses = omega_hat
            .iter()
            .zip(&chain_blinds)
            .map(|(w, r)| w - challenge * r)
            .collect();
        let permutation_responses = omega_prime
            .iter()
            .zip(&u_permuted)
            .map(|(w, u)| w - challenge * u)
            .collect();

        // Any of these would give the permutation away; wipe them before
        // the memory is reused.
        for secret in [
            &mut reencryption,
            &mut commitment_blinds,
            &mut chain_blinds,
            &mut omega_hat,
            &mut omega_prime,
            &mut u_permuted,
            &mut v,
        ] {
            secret.zeroize();
        }
        omega.zeroize();
        witness_sums.zeroize();

        ShuffleMessage {
            output: Deck(output),
            commitments,
            chain,
            challenge,
            responses,
            chain_responses,
            permutation_responses,
        }
    }

    /// The shuffled deck (trust it only after [`ShuffleMessage::verify`]).
    pub fn output(&self) -> &Deck {
        &self.output
    }

    /// Checks that the output is a permutation of re-encryptions of `input`
    /// under `key`, proved by the seat of `context`. Returns the output deck.
    pub fn verify(
        &self,
        context: &Context,
        key: &DeckKey,
        input: &Deck,
    ) -> Result<&Deck, DealError> {
        let n = input.len();
        if self.output.len() != n {
            return Err(DealError::ShuffleSize {
                input: n,
                output: self.output.len(),
            });
        }
        let gens = generators();
        let output = self.output.ciphertexts();
        let statement = statement_digest(context, key, input, output);
        let u = position_challenges(&statement, &self.commitments);
        let c = self.challenge;
        let [s1, s2, s3, s4] = self.responses;

        // C̄ = Σ C_j − Σ H_i
        let commitment_sum: RistrettoPoint = self.commitments.iter().map(|e| e.point).sum();
        let generator_sum: RistrettoPoint = gens.h_list[..n].iter().sum();
        let t1 = RistrettoPoint::vartime_multiscalar_mul(
            [c, s1],
            [commitment_sum - generator_sum, gens.g],
        );
        // Ĉ = Ĉ_n − (Π u_j)·H
        let u_product = u.iter().fold(Scalar::ONE, |acc, x| acc * x);
        let t2 = RistrettoPoint::vartime_multiscalar_mul(
            [c, -(c * u_product), s2],
            [self.chain[n - 1].point, gens.h, gens.g],
        );
        let cu: Vec<Scalar> = u.iter().map(|x| c * x).collect();
        let s_prime = &self.permutation_responses;
        let t3 = RistrettoPoint::vartime_multiscalar_mul(
            cu.iter().chain(s_prime).chain([&s3]),
            self.commitments
                .iter()
                .map(|e| e.point)
                .chain(gens.h_list[..n].iter().copied())
                .chain([gens.g]),
        );
        let t4a = RistrettoPoint::vartime_multiscalar_mul(
            cu.iter().chain(s_prime).chain([&-s4]),
            input
                .ciphertexts()
                .iter()
                .map(|e| e.a.point)
                .chain(output.iter().map(|e| e.a.point))
                .chain([gens.g]),
        );
        let t4b = RistrettoPoint::vartime_multiscalar_mul(
            cu.iter().chain(s_prime).chain([&-s4]),
            input
                .ciphertexts()
                .iter()
                .map(|e| e.b.point)
                .chain(output.iter().map(|e| e.b.point))
                .chain([key.0.point]),
        );
        let t_hat: Vec<RistrettoPoint> = (0..n)
            .map(|i| {
                let previous = if i == 0 {
                    gens.h
                } else {
                    self.chain[i - 1].point
                };
                RistrettoPoint::vartime_multiscalar_mul(
                    [c, self.chain_responses[i], s_prime[i]],
                    [self.chain[i].point, gens.g, previous],
                )
            })
            .collect();
        let expected = shuffle_challenge(
            &statement,
            &self.commitments,
            &self.chain,
            &ProofCommitments {
                t1,
                t2,
                t3,
                t4a,
                t4b,
                t_hat: &t_hat,
            },
        );
        if expected != c {
            return Err(DealError::ProofFailed { proof: "shuffle" });
        }
        Ok(&self.output)
    }

    /// The encoded length of a shuffle of `n` cards: `192·n + 162`.
    pub fn encoded_len(n: usize) -> usize {
        2 + n * (CIPHERTEXT_LEN + 32 + 32 + 32 + 32) + 5 * 32
    }

    /// The canonical encoding (see the type's documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.output.len();
        let mut out = Vec::with_capacity(ShuffleMessage::encoded_len(n));
        self.output.write(&mut out);
        for e in self.commitments.iter().chain(&self.chain) {
            out.extend_from_slice(&e.bytes);
        }
        out.extend_from_slice(self.challenge.as_bytes());
        for s in self
            .responses
            .iter()
            .chain(&self.chain_responses)
            .chain(&self.permutation_responses)
        {
            out.extend_from_slice(s.as_bytes());
        }
        out
    }

    /// Decodes a shuffle message, refusing a length that does not match its
    /// card count and any non-canonical point or scalar.
    pub fn from_bytes(bytes: &[u8]) -> Result<ShuffleMessage, DealError> {
        const WHAT: &str = "shuffle message";
        let n = read_count(WHAT, bytes)?;
        let expected = ShuffleMessage::encoded_len(n);
        if bytes.len() != expected {
            return Err(DealError::WrongLength {
                what: WHAT,
                expected,
                got: bytes.len(),
            });
        }
        let (output, rest) = Deck::read(bytes)?;
        let (commitment_bytes, rest) = rest.split_at(32 * n);
        let (chain_bytes, rest) = rest.split_at(32 * n);
        let points = |what, b: &[u8]| {
            b.chunks_exact(32)
                .map(|c| Element::decode(what, c))
                .collect::<Result<Vec<_>, _>>()
        };
        let commitments = points("shuffle permutation commitment", commitment_bytes)?;
        let chain = points("shuffle chain commitment", chain_bytes)?;
        let (challenge_bytes, rest) = rest.split_at(32);
        let challenge = decode_scalar("shuffle challenge", challenge_bytes)?;
        let mut scalars = rest
            .chunks_exact(32)
            .map(|c| decode_scalar("shuffle response", c));
        let mut next = || {
            scalars.next().unwrap_or(Err(DealError::WrongLength {
                what: WHAT,
                expected,
                got: bytes.len(),
            }))
        };
        let responses = [next()?, next()?, next()?, next()?];
        let chain_responses = (0..n).map(|_| next()).collect::<Result<Vec<_>, _>>()?;
        let permutation_responses = (0..n).map(|_| next()).collect::<Result<Vec<_>, _>>()?;
        Ok(ShuffleMessage {
            output,
            commitments,
            chain,
            challenge,
            responses,
            chain_responses,
            permutation_responses,
        })
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    use super::*;

    /// A prover that follows every step honestly for a map that is not a
    /// permutation (a card duplicated, another dropped) must be caught by
    /// the proof itself, not only by the statement hash: here the
    /// statement is the cheater's own output, so only the equations can
    /// refuse it (the chain's product of the u_j differs).
    #[test]
    fn a_proof_for_a_duplicated_card_does_not_verify() {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let ctx = Context {
            game_id: [5; 32],
            epoch: 0,
            seat: 1,
        };
        let secret = SecretShare::generate(&mut rng);
        let key = DeckKey::combine(&[secret.public()]).expect("one share");
        let input = Deck::open(&ctx.game_id, &[0, 1, 2, 3, 4]).expect("valid size");
        let pre = statement_digest(&ctx, &key, &input, &[]);

        let permutation = [3, 0, 4, 1, 2];
        let mut secrets = NonceSource::new(secret.scalar(), &pre, &mut rng);
        let honest = ShuffleMessage::prove(&ctx, &key, &input, &permutation, &mut secrets);
        assert!(honest.verify(&ctx, &key, &input).is_ok());

        for cheat in [[3, 0, 4, 1, 3], [0, 0, 0, 0, 0], [1, 0, 2, 3, 3]] {
            let mut secrets = NonceSource::new(secret.scalar(), &pre, &mut rng);
            let forged = ShuffleMessage::prove(&ctx, &key, &input, &cheat, &mut secrets);
            assert_eq!(
                forged.verify(&ctx, &key, &input).err(),
                Some(DealError::ProofFailed { proof: "shuffle" }),
                "the map {cheat:?} passed as a permutation"
            );
        }
    }
}
