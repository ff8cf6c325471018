//! What each game's board view holds for known positions: the cells, walls, labels, scores and
//! moves the page draws (the page computes none of them). The generic checks of every view are in
//! tests/catalogue.rs.

use plyscope::core::{view_of, Coord, Game, Geometry, MoveKind, Viewable};
use plyscope::games::ataxx::Ataxx;
use plyscope::games::reversi::Reversi;
use plyscope::games::threes::Threes;
use plyscope::games::tictactoe::TicTacToe;

fn top_owner(v: &plyscope::core::BoardView, x: i32, y: i32) -> Option<u8> {
    v.cell(Coord::new(x, y))
        .and_then(|c| c.pieces.last())
        .and_then(|p| p.owner)
}

#[test]
fn tictactoe_cells_from_a1_at_the_top_left() {
    let p = TicTacToe::from_position_text("tictactoe", "XO--X---O X").unwrap();
    let v = view_of(&p, None);
    assert_eq!(
        v.geometry,
        Geometry::Square {
            width: 3,
            height: 3
        }
    );
    assert_eq!(v.style, "marks");
    assert_eq!(top_owner(&v, 0, 0), Some(0));
    assert_eq!(top_owner(&v, 1, 0), Some(1));
    assert_eq!(top_owner(&v, 2, 2), Some(1));
    assert_eq!(v.to_move, Some(0));
    let c2 = v.find_move("c2").unwrap();
    assert_eq!((c2.kind, c2.to), (MoveKind::Place, Some(Coord::new(2, 1))));
    assert!(v.scores.is_empty());
}

#[test]
fn reversi_size_from_the_id_and_disc_counts() {
    let text = "-".repeat(12 * 12 - 1) + "X O";
    let p = Reversi::from_position_text("reversi-12", &text).unwrap();
    let v = p.board_view();
    assert_eq!(
        v.geometry,
        Geometry::Square {
            width: 12,
            height: 12
        }
    );
    assert_eq!(top_owner(&v, 11, 11), Some(0));
    assert_eq!(v.labels.as_ref().unwrap().columns[11], "l");
    assert_eq!(v.labels.as_ref().unwrap().rows[11], "12");
    assert_eq!(v.scores[0].text, "1");
    assert_eq!(v.scores[1].text, "0");
    let start = view_of(&Reversi::new(8).unwrap(), None);
    assert_eq!(start.find_move("d3").unwrap().to, Some(Coord::new(3, 2)));
}

#[test]
fn ataxx_rank_7_on_top_walls_clones_and_jumps() {
    let p =
        Ataxx::from_position_text("ataxx", "x2-2o/3-3/3-3/---1---/3-3/3-3/o2-2x x 0 1").unwrap();
    let v = view_of(&p, None);
    assert_eq!(top_owner(&v, 0, 0), Some(0), "a7 is black");
    assert_eq!(top_owner(&v, 6, 0), Some(1), "g7 is white");
    let walls: Vec<Coord> = v.cells.iter().filter(|c| c.blocked).map(|c| c.at).collect();
    assert_eq!(walls.len(), 12);
    assert!(walls.contains(&Coord::new(3, 0)) && walls.contains(&Coord::new(0, 3)));
    assert!(!walls.contains(&Coord::new(3, 3)));
    let clone = v.find_move("b6").unwrap();
    assert_eq!(clone.kind, MoveKind::Clone);
    assert_eq!(clone.to, Some(Coord::new(1, 1)));
    assert_eq!(clone.sources, vec![Coord::new(0, 0)], "b6 grows from a7");
    let jump = v.find_move("a7c5").unwrap();
    assert_eq!(jump.kind, MoveKind::Jump);
    assert_eq!(
        (jump.from, jump.to),
        (Some(Coord::new(0, 0)), Some(Coord::new(2, 2)))
    );
    assert_eq!(v.scores[0].text, "2");
}

#[test]
fn threes_cards_points_and_the_next_card() {
    let p = Threes::from_position_text(
        "threes",
        "3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 3 3 | next 2",
    )
    .unwrap();
    let v = view_of(&p, None);
    assert_eq!(
        v.geometry,
        Geometry::Tiles {
            width: 4,
            height: 4
        }
    );
    let label = |x, y| {
        v.cell(Coord::new(x, y))
            .and_then(|c| c.pieces.last())
            .map(|p| (p.kind.clone(), p.label.clone().unwrap()))
    };
    assert_eq!(label(0, 0), Some(("card".into(), "3".into())));
    assert_eq!(label(2, 0), Some(("one".into(), "1".into())));
    assert_eq!(label(3, 3), Some(("card".into(), "48".into())));
    assert_eq!(label(1, 0), None);
    // 3 -> 3, 12 -> 27, 6 -> 9, 48 -> 243.
    assert_eq!(v.scores[0].value, (3 + 27 + 9 + 243) as f64);
    assert_eq!(v.info[0].label, "next");
    assert_eq!(
        v.info[0].piece.as_ref().unwrap().label.as_deref(),
        Some("2")
    );
    assert!(!v.moves.is_empty());
    for m in &v.moves {
        assert_eq!(m.kind, MoveKind::Swipe);
        assert_eq!(m.direction, Some(m.text.as_str()));
        assert!(m.to.is_none());
    }
}
