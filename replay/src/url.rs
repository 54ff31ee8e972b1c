//! The `--db` value as it may be printed: no password from it, whatever its
//! shape. A URL the client cannot parse may still carry one, so the rules
//! are textual and err towards hiding: what follows the first `:` of the
//! user part, up to the *last* `@` (the client takes the first: a password
//! with an `@` or `/` in it is hidden whole); a port that is not a number
//! (`postgres://bob:secret/db`, the host left out); every `password=` value
//! (query parameters and `key=value` strings alike).

/// What replaces a hidden part.
const HIDDEN: &str = "***";

/// `db` with every part that may be a password replaced by `***`, and the
/// parts replaced (to scrub from messages of the client or the server).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Redacted {
    pub(crate) shown: String,
    pub(crate) secrets: Vec<String>,
}

impl Redacted {
    pub(crate) fn new(db: &str) -> Redacted {
        let mut secrets = Vec::new();
        let scheme_end = db.find("://").map_or(0, |at| at + 3);
        let (head, rest) = db.split_at(scheme_end);
        let mut shown = head.to_owned();
        // The user part: up to the last `@`.
        let host_start = match rest.rfind('@') {
            Some(at) => {
                let user = &rest[..at];
                match user.split_once(':') {
                    Some((name, password)) if !password.is_empty() => {
                        secrets.push(password.to_owned());
                        // As the client decodes it (`%40` is `@`).
                        secrets.push(percent_decoded(password));
                        shown.push_str(name);
                        shown.push(':');
                        shown.push_str(HIDDEN);
                    }
                    _ => shown.push_str(user),
                }
                shown.push('@');
                at + 1
            }
            None => 0,
        };
        let rest = &rest[host_start..];
        // The hosts: up to the path or the parameters, when this is a URL.
        let hosts_end = if scheme_end > 0 {
            rest.find(['/', '?']).unwrap_or(rest.len())
        } else {
            0
        };
        let hosts: Vec<String> = rest[..hosts_end]
            .split(',')
            .map(|chunk| match chunk.split_once(':') {
                Some((host, port))
                    if !chunk.starts_with('[')
                        && !port.is_empty()
                        && !port.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    secrets.push(port.to_owned());
                    format!("{host}:{HIDDEN}")
                }
                _ => chunk.to_owned(),
            })
            .collect();
        shown.push_str(&hosts.join(","));
        shown.push_str(&hide_password_values(&rest[hosts_end..], &mut secrets));
        Redacted { shown, secrets }
    }

    /// `text` (a message of the client or the server) with every hidden
    /// part replaced.
    pub(crate) fn scrub(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in &self.secrets {
            if !secret.is_empty() {
                out = out.replace(secret.as_str(), HIDDEN);
            }
        }
        out
    }
}

/// `%XX` escapes decoded, as PostgreSQL clients decode a URL's password.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` with the value of every `password=` replaced: up to `&` or white
/// space, or a quoted value up to its closing quote.
fn hide_password_values(text: &str, secrets: &mut Vec<String>) -> String {
    const KEY: &str = "password=";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.to_ascii_lowercase().find(KEY) {
        let value_start = at + KEY.len();
        out.push_str(&rest[..value_start]);
        let value = &rest[value_start..];
        let value_len = if let Some(quoted) = value.strip_prefix('\'') {
            // libpq's quoting: `\'` inside, the closing `'` ends it.
            let mut end = value.len();
            let mut escaped = false;
            for (i, c) in quoted.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '\'' if !escaped => {
                        end = i + 2;
                        break;
                    }
                    _ => escaped = false,
                }
            }
            end
        } else {
            value
                .find(|c: char| c == '&' || c.is_whitespace())
                .unwrap_or(value.len())
        };
        if value_len > 0 {
            secrets.push(value[..value_len].to_owned());
            out.push_str(HIDDEN);
        }
        rest = &value[value_len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(db: &str) -> String {
        Redacted::new(db).shown
    }

    #[test]
    fn a_password_is_hidden_in_every_shape_of_url() {
        for (db, expected) in [
            ("postgres://bob:pw@h/db", "postgres://bob:***@h/db"),
            ("mysql://bob:pw@h:3306/db", "mysql://bob:***@h:3306/db"),
            ("postgres://bob:p@w/d@h/db", "postgres://bob:***@h/db"),
            ("postgres://bob:p?#w@h/db", "postgres://bob:***@h/db"),
            ("postgres://bob:pw/db", "postgres://bob:***/db"),
            (
                "postgres://h/db?user=bob&password=pw",
                "postgres://h/db?user=bob&password=***",
            ),
            (
                "host=h password='p w\\'x' user=bob",
                "host=h password=*** user=bob",
            ),
            ("host=h PASSWORD=pw", "host=h PASSWORD=***"),
            ("bob:pw@h/db", "bob:***@h/db"),
            ("postgres:/bob:pw@h/db", "postgres:***@h/db"),
        ] {
            assert_eq!(shown(db), expected, "{db}");
        }
    }

    #[test]
    fn a_url_without_a_password_is_shown_as_given() {
        for db in [
            "sqlite",
            "postgres://postgres@127.0.0.1:55432/postgres",
            "postgres://bob@h1:5432,h2:5433/db?connect_timeout=2",
            "postgres://[::1]:5432/db",
            "postgres:///db?host=/tmp",
            "postgres://bob:@h/db",
        ] {
            assert_eq!(shown(db), db);
        }
    }

    #[test]
    fn messages_are_scrubbed_of_what_was_hidden() {
        let redacted = Redacted::new("postgres://bob:p%40w@h/db");
        assert_eq!(
            redacted.scrub("password p%40w or p@w refused"),
            "password *** or *** refused"
        );
    }
}
