//! Names as lookups compare them. A leaf of the model: every file that finds things by name uses it.

/// The normalized form of a name used for lookups: trimmed, lower case, single spaces.
pub fn name_key(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, word) in name.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_ascii() {
        out.make_ascii_lowercase();
        out
    } else {
        out.to_lowercase()
    }
}

/// Whether two item names name the same thing, one written as a plural ("arrows", "Arrow"):
/// the same [`name_key`] once a final "s" is dropped from each.
pub fn same_item(a: &str, b: &str) -> bool {
    let (a, b) = (name_key(a), name_key(b));
    a.strip_suffix('s').unwrap_or(&a) == b.strip_suffix('s').unwrap_or(&b)
}

/// Whether `a` and `b` have the same [`name_key`], without allocating when both are ASCII.
pub fn same_name(a: &str, b: &str) -> bool {
    if !a.is_ascii() || !b.is_ascii() {
        return name_key(a) == name_key(b);
    }
    let mut x = a.split_whitespace();
    let mut y = b.split_whitespace();
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) if p.eq_ignore_ascii_case(q) => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_comparisons_agree() {
        assert_eq!(name_key("  Second   Wind "), "second wind");
        assert_eq!(name_key("ÉLAN Vital"), "élan vital");
        for (a, b) in [
            ("Second Wind", "second  wind"),
            (" Ki ", "KI"),
            ("Rage", "Rages"),
            ("Élan", "élan"),
            ("Élan", "elan"),
            ("", "  "),
            ("a b", "ab"),
            ("a\u{b}b", "a b"),
        ] {
            assert_eq!(same_name(a, b), name_key(a) == name_key(b), "{a:?} {b:?}");
        }
    }
}
