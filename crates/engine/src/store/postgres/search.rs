//! Note search on PostgreSQL, ranked exactly like SQLite's FTS5 `bm25()`.
//!
//! The words of a note are cut and folded as SQLite's `unicode61` tokenizer with
//! `remove_diacritics 2` does (letters and digits; lower case; accents dropped). The `fts`
//! column holds them as a `tsvector` so a GIN index finds the candidate notes; the exact match
//! (phrases, the prefix of each term's last word, per column) and the BM25 score are computed
//! here from FTS5's own formula: k1 = 1.2, b = 0.75, IDF = ln((N − n + 0.5) / (n + 0.5))
//! (at least 1e-6) over every note of the store, the document length being the token count of
//! content and tags together, and the average over every note.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The words of `text` as `unicode61 remove_diacritics 2` cuts them.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.nfd() {
        if is_combining_mark(c) {
            continue;
        }
        if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// One search term: its words, the last matched as a prefix (FTS5 `"…"*`).
pub(crate) struct Phrase(pub Vec<String>);

impl Phrase {
    /// How many times the phrase occurs in `tokens`.
    pub(crate) fn count_in(&self, tokens: &[String]) -> usize {
        let n = self.0.len();
        if n == 0 || tokens.len() < n {
            return 0;
        }
        (0..=tokens.len() - n)
            .filter(|&i| {
                self.0.iter().enumerate().all(|(k, w)| {
                    if k + 1 == n {
                        tokens[i + k].starts_with(w.as_str())
                    } else {
                        tokens[i + k] == *w
                    }
                })
            })
            .count()
    }

    /// The `tsquery` every note holding the phrase matches (its words, the last as a prefix;
    /// word order is checked afterwards). Words are letters and digits only, so quoting them is
    /// enough.
    pub(crate) fn prefilter(&self) -> String {
        let n = self.0.len();
        let parts: Vec<String> = self
            .0
            .iter()
            .enumerate()
            .map(|(k, w)| {
                if k + 1 == n {
                    format!("'{w}':*")
                } else {
                    format!("'{w}'")
                }
            })
            .collect();
        format!("({})", parts.join(" & "))
    }
}

/// The phrases of the engine's terms; `None` when the query can match nothing (all terms
/// required and one has no word; or no term has a word).
pub(crate) fn phrases(terms: &[String], all: bool) -> Option<Vec<Phrase>> {
    let mut out = Vec::new();
    for t in terms {
        let w = words(t);
        if w.is_empty() {
            if all {
                return None;
            }
        } else {
            out.push(Phrase(w));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The statistics BM25 needs from the whole store.
pub(crate) struct Corpus {
    /// Notes in the store (every campaign, like the FTS5 table).
    pub rows: f64,
    /// Their tokens in total.
    pub tokens: f64,
    /// For each phrase, how many notes hold it.
    pub hits: Vec<f64>,
}

/// FTS5's `bm25()` of a note whose columns are `columns` (negated: higher is better), or
/// `None` when the note does not match.
pub(crate) fn score(
    phrases: &[Phrase],
    all: bool,
    corpus: &Corpus,
    columns: &[&[String]],
) -> Option<f64> {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let freq: Vec<usize> = phrases
        .iter()
        .map(|p| columns.iter().map(|c| p.count_in(c)).sum())
        .collect();
    let matched = if all {
        freq.iter().all(|f| *f > 0)
    } else {
        freq.iter().any(|f| *f > 0)
    };
    if !matched {
        return None;
    }
    let d: usize = columns.iter().map(|c| c.len()).sum();
    let avgdl = if corpus.rows > 0.0 {
        corpus.tokens / corpus.rows
    } else {
        0.0
    };
    let mut score = 0.0;
    for (i, f) in freq.iter().enumerate() {
        let hits = corpus.hits.get(i).copied().unwrap_or(0.0);
        let mut idf = ((0.5 + corpus.rows - hits) / (0.5 + hits)).ln();
        if idf <= 0.0 {
            idf = 1e-6;
        }
        let f = *f as f64;
        score += idf * ((f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * d as f64 / avgdl)));
    }
    Some(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_fold_case_and_accents_like_unicode61() {
        assert_eq!(
            words("Élan-vital, CAFÉ 3d6; naïve"),
            vec!["elan", "vital", "cafe", "3d6", "naive"]
        );
    }

    #[test]
    fn phrases_match_in_order_with_a_prefix_last_word() {
        let p = Phrase(words("red dra"));
        assert_eq!(p.count_in(&words("the red dragon and a red drake")), 2);
        assert_eq!(p.count_in(&words("dragon red")), 0);
        assert_eq!(p.prefilter(), "('red' & 'dra':*)");
    }
}
