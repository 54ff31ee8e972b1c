//! The two languages of the course, as a type.
//!
//! Every text a learner reads exists in English and Chinese. Code holds a
//! [`Lang`] (never a string compared with `"zh"`) and picks with
//! [`Lang::pick`] or [`Text::get`](crate::Text::get).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

/// A language of the course.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English, the default.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Every language, in the order a switch cycles through them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The code used in files, URLs and on the command line: `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// `en` in English, `zh` in Chinese: the one way code chooses words
    /// by language, for literals (`&str`) and made text (`String`) alike.
    pub fn pick<T>(self, en: T, zh: T) -> T {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

    /// The other language: what a language switch goes to.
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }

    /// The language's tag for HTML's `lang` attribute (BCP 47): Chinese
    /// is written in simplified characters.
    pub fn html_tag(self) -> &'static str {
        self.pick("en", "zh-Hans")
    }

    /// The language a locale or browser language asks for (`zh_CN.UTF-8`,
    /// `zh-TW`, `en-GB`, `C`): Chinese for any Chinese, else English.
    pub fn of_locale(locale: &str) -> Lang {
        if locale
            .get(..2)
            .is_some_and(|code| code.eq_ignore_ascii_case("zh"))
        {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// The language's own name, for a switch that offers it.
    pub fn own_name(self) -> &'static str {
        self.pick("English", "中文")
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code that is neither `en` nor `zh`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language `{}`: en or zh / 未知的语言 `{}`：en 或 zh",
            self.0, self.0
        )
    }
}

impl std::error::Error for UnknownLang {}

impl FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(code: &str) -> Result<Lang, UnknownLang> {
        match code {
            "en" => Ok(Lang::En),
            "zh" => Ok(Lang::Zh),
            other => Err(UnknownLang(other.to_owned())),
        }
    }
}

/// A record written elsewhere may name a language this build does not know;
/// it reads as English rather than refusing the whole record (progress must
/// never be lost over a preference).
impl<'de> Deserialize<'de> for Lang {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Lang, D::Error> {
        let code = String::deserialize(deserializer)?;
        Ok(code.parse().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_round_trips_through_its_code_and_serde() {
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
            let json = serde_json::to_string(&lang).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", lang.code()));
            assert_eq!(serde_json::from_str::<Lang>(&json).ok(), Some(lang));
            assert_eq!(lang.other().other(), lang);
        }
        assert!("fr".parse::<Lang>().is_err());
        assert_eq!(serde_json::from_str::<Lang>("\"fr\"").ok(), Some(Lang::En));
    }

    #[test]
    fn a_locale_asks_for_chinese_only_when_it_is_chinese() {
        for chinese in ["zh", "zh_CN.UTF-8", "zh-TW", "ZH-hans"] {
            assert_eq!(Lang::of_locale(chinese), Lang::Zh, "{chinese}");
        }
        for other in ["", "C", "en-GB", "en_US.UTF-8", "z", "fr"] {
            assert_eq!(Lang::of_locale(other), Lang::En, "{other}");
        }
    }
}
