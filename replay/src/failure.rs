//! Why the database named by `--db` cannot serve the replay: the value is
//! to blame, not the scenario, and the words name the cause.

use std::time::Duration;

use sim_core::Lang;

/// Why `--db` could not be used (or stopped being usable during the replay).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DbFailure {
    /// Neither `sqlite` nor a `postgres://` (or `postgresql://`) URL.
    NotADatabase,
    /// Nothing accepts connections there (the port is closed, or there is no
    /// Unix socket at the path).
    Refused,
    /// A host name of the URL does not resolve. (Not named in the words: a
    /// malformed URL can make part of a password look like a host.)
    UnknownHost,
    /// Connecting (name lookup, TCP, start-up, authentication) took longer
    /// than the bound.
    ConnectTimedOut { bound: Duration },
    /// The server sent nothing back to one of the replay's statements within
    /// the bound.
    AnswerTimedOut { bound: Duration },
    /// The server refused the credentials (SQLSTATE class 28), with its
    /// message; `None`: it asks for a password and the URL gives none.
    Authentication { server_said: Option<String> },
    /// Anything else: the URL cannot be parsed, the server refuses the
    /// schema, … (the client's or the server's words).
    Other { detail: String },
}

impl DbFailure {
    /// The cause in `lang`, after `--db VALUE: `.
    pub(crate) fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (DbFailure::NotADatabase, Lang::En) => {
                "expected `sqlite` or a postgres://… URL".to_owned()
            }
            (DbFailure::NotADatabase, Lang::Zh) => "应为 `sqlite` 或 postgres://… 地址".to_owned(),
            (DbFailure::Refused, Lang::En) => {
                "connection refused: no server is listening there".to_owned()
            }
            (DbFailure::Refused, Lang::Zh) => "连接被拒绝：那里没有服务器在监听".to_owned(),
            (DbFailure::UnknownHost, Lang::En) => {
                "unknown host: the host name does not resolve".to_owned()
            }
            (DbFailure::UnknownHost, Lang::Zh) => "未知主机：无法解析这个主机名".to_owned(),
            (DbFailure::ConnectTimedOut { bound }, Lang::En) => format!(
                "timed out connecting: no answer within {} s (`connect_timeout` in the URL sets this bound)",
                bound.as_secs()
            ),
            (DbFailure::ConnectTimedOut { bound }, Lang::Zh) => format!(
                "连接超时：{} 秒内没有应答（URL 中的 `connect_timeout` 可设置这个上限）",
                bound.as_secs()
            ),
            (DbFailure::AnswerTimedOut { bound }, Lang::En) => format!(
                "timed out waiting for an answer: the server sent nothing for {} s",
                bound.as_secs()
            ),
            (DbFailure::AnswerTimedOut { bound }, Lang::Zh) => {
                format!("等待应答超时：服务器 {} 秒没有任何回应", bound.as_secs())
            }
            (
                DbFailure::Authentication {
                    server_said: Some(said),
                },
                Lang::En,
            ) => {
                format!("authentication failed: {said}")
            }
            (
                DbFailure::Authentication {
                    server_said: Some(said),
                },
                Lang::Zh,
            ) => {
                format!("认证失败：{said}")
            }
            (DbFailure::Authentication { server_said: None }, Lang::En) => {
                "authentication failed: the server asks for a password and the URL gives none"
                    .to_owned()
            }
            (DbFailure::Authentication { server_said: None }, Lang::Zh) => {
                "认证失败：服务器要求密码，而 URL 中没有密码".to_owned()
            }
            (DbFailure::Other { detail }, Lang::En) => {
                format!("cannot use this database: {detail}")
            }
            (DbFailure::Other { detail }, Lang::Zh) => format!("无法使用这个数据库：{detail}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cause_has_words_in_both_languages() {
        let bound = Duration::from_secs(10);
        for failure in [
            DbFailure::NotADatabase,
            DbFailure::Refused,
            DbFailure::UnknownHost,
            DbFailure::ConnectTimedOut { bound },
            DbFailure::AnswerTimedOut { bound },
            DbFailure::Authentication { server_said: None },
            DbFailure::Authentication {
                server_said: Some("28P01".to_owned()),
            },
            DbFailure::Other {
                detail: "x".to_owned(),
            },
        ] {
            let chinese = |text: &str| text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
            assert!(!chinese(&failure.words(Lang::En)), "{failure:?}");
            assert!(chinese(&failure.words(Lang::Zh)), "{failure:?}");
        }
    }
}
