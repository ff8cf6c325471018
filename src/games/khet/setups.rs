//! The starting setups: Classic, Imhotep and Dynasty from the Khet 2.0 rule sheet, and their Eye of
//! Horus versions, in which each side's Eye replaces one of its Scarabs (same square, same
//! facing). Sources are listed in docs/khet.md.

use crate::core::Error;

/// A named starting setup (and so a game id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Setup {
    /// The rule sheet's first setup (`khet`, also `khet-classic`).
    #[default]
    Classic,
    /// Imhotep (`khet-imhotep`).
    Imhotep,
    /// Dynasty (`khet-dynasty`).
    Dynasty,
    /// Classic with the Eyes of Horus (`khet-classic-horus`).
    ClassicHorus,
    /// Imhotep with the Eyes of Horus (`khet-imhotep-horus`).
    ImhotepHorus,
    /// Dynasty with the Eyes of Horus (`khet-dynasty-horus`).
    DynastyHorus,
}

/// Every setup, in catalogue order.
pub const ALL: [Setup; 6] = [
    Setup::Classic,
    Setup::Imhotep,
    Setup::Dynasty,
    Setup::ClassicHorus,
    Setup::ImhotepHorus,
    Setup::DynastyHorus,
];

impl Setup {
    /// The game id (`khet`, `khet-imhotep`, `khet-classic-horus`...).
    pub const fn id(self) -> &'static str {
        match self {
            Setup::Classic => "khet",
            Setup::Imhotep => "khet-imhotep",
            Setup::Dynasty => "khet-dynasty",
            Setup::ClassicHorus => "khet-classic-horus",
            Setup::ImhotepHorus => "khet-imhotep-horus",
            Setup::DynastyHorus => "khet-dynasty-horus",
        }
    }

    /// The name shown to people.
    pub const fn title(self) -> &'static str {
        match self {
            Setup::Classic => "Khet 2.0, Classic",
            Setup::Imhotep => "Khet 2.0, Imhotep",
            Setup::Dynasty => "Khet 2.0, Dynasty",
            Setup::ClassicHorus => "Khet 2.0, Classic with the Eye of Horus",
            Setup::ImhotepHorus => "Khet 2.0, Imhotep with the Eye of Horus",
            Setup::DynastyHorus => "Khet 2.0, Dynasty with the Eye of Horus",
        }
    }

    /// Whether the setup has the Eyes of Horus.
    pub const fn horus(self) -> bool {
        matches!(
            self,
            Setup::ClassicHorus | Setup::ImhotepHorus | Setup::DynastyHorus
        )
    }

    /// The setup of a game id; `khet` and `khet-classic` are both Classic.
    pub fn from_id(id: &str) -> Result<Setup, Error> {
        let id = id.trim();
        match id {
            "khet" | "khet-classic" => Ok(Setup::Classic),
            _ => ALL.iter().copied().find(|s| s.id() == id).ok_or_else(|| {
                Error::bad_option(
                    "game",
                    id,
                    "khet (or khet-classic), khet-imhotep, khet-dynasty, or one of them with -horus \
                     (khet-classic-horus, khet-imhotep-horus, khet-dynasty-horus)",
                )
            }),
        }
    }

    /// The start position as position text (see [`super::notation`]).
    pub const fn start_text(self) -> &'static str {
        match self {
            Setup::Classic => concat!(
                "xs3askaspse2/2psw7/3Pnw6/pne1Psw1snesse1pse1Pnw/",
                "pse1Pnw1SseSne1pne1Psw/6pse3/7Pne2/2PnwAnKAn3Xn s 0 1 khet"
            ),
            Setup::Imhotep => concat!(
                "xs3askassse2/10/3Pnw2pne3/pnePsw2Psesse2psePnw/",
                "psePnw2Ssepnw2pnePsw/3Psw2pse3/10/2SseAnKAn3Xn s 0 1 khet-imhotep"
            ),
            Setup::Dynasty => concat!(
                "xs3pswaspse3/5k4/pne3pswassse3/pse1sne1Pnw1Pse3/",
                "3pnw1pse1Sne1Pnw/3SseAnPne3Psw/4K5/3PnwAnPne3Xn s 0 1 khet-dynasty"
            ),
            Setup::ClassicHorus => concat!(
                "xs3askaspse2/2psw7/3Pnw6/pne1Psw1snehse1pse1Pnw/",
                "pse1Pnw1HseSne1pne1Psw/6pse3/7Pne2/2PnwAnKAn3Xn s 0 1 khet-classic-horus"
            ),
            Setup::ImhotepHorus => concat!(
                "xs3askassse2/10/3Pnw2pne3/pnePsw2Psehse2psePnw/",
                "psePnw2Hsepnw2pnePsw/3Psw2pse3/10/2SseAnKAn3Xn s 0 1 khet-imhotep-horus"
            ),
            Setup::DynastyHorus => concat!(
                "xs3pswaspse3/5k4/pne3pswassse3/pse1hne1Pnw1Pse3/",
                "3pnw1pse1Hne1Pnw/3SseAnPne3Psw/4K5/3PnwAnPne3Xn s 0 1 khet-dynasty-horus"
            ),
        }
    }
}
