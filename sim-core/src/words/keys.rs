//! What each key of the terminal app does, in words: the footer and the
//! help list a key's label beside one of these.

use super::Words;

catalogue! {}
