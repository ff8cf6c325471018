// Hand-run helper for scripts/khet-perft-compare.py: links against Khet2-AI's core library
// (https://github.com/AlexKent3141/Khet2-AI, built by whoever runs the script, outside the
// repository) and answers on standard output, one command a line on standard input. Positions are
// given in Plyscope's position text (docs/khet.md), which this file converts to Khet2-AI's board
// string. It is never part of Plyscope's build or tests.
//
//   perft D F | POSITION   -> the leaf count at depth D with Khet2-AI's move generator; F = 1 drops
//                              the swaps Plyscope forbids (a piece swapped onto a square reserved
//                              for the other colour), F = 0 counts every move Khet2-AI generates
//   children | POSITION    -> one line per Khet2-AI move: the move in Plyscope's notation, the board
//                              field and the side to move after it, and "swapbad" for such a swap
//   moves | POSITION       -> Khet2-AI's moves, Khet2-AI's notation, on one line
//   badswaps D | POSITION  -> every line of at most D moves (Plyscope's notation) that ends with a
//                              swap Plyscope forbids, one a line, then "end"
//
// Build: g++ -O2 -std=c++17 -I KHET2AI/src KHET2AI/src/core/*.cpp THIS.cpp -pthread
#include "core/Board.h"
#include "core/MoveGenerator.h"
#include "core/MoveHelpers.h"
#include "core/SquareHelpers.h"
#include "core/Zobrist.h"
#include <cctype>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Plyscope facing text -> Khet2-AI orientation index (0 up/north, clockwise).
int facing_index(const std::string& f) {
    static const char* one[] = {"n", "e", "s", "w"};
    static const char* two[] = {"ne", "se", "sw", "nw"};
    for (int i = 0; i < 4; i++) {
        if (f == one[i] || f == two[i]) return i;
    }
    return -1;
}

// Converts the board field and the side to move of a Plyscope position text into Khet2-AI's
// "ranks side" string. Throws on anything it does not understand (an Eye of Horus, for one).
std::string to_khet2ai(const std::string& board, const std::string& side) {
    std::string out;
    size_t i = 0;
    int gap = 0;
    auto flush_gap = [&]() {
        while (gap > 0) {
            int g = gap > 9 ? 9 : gap;
            out += char('0' + g);
            gap -= g;
        }
    };
    while (i < board.size()) {
        char c = board[i];
        if (c == '/') {
            flush_gap();
            out += '/';
            i++;
        } else if (std::isdigit((unsigned char)c)) {
            int n = 0;
            while (i < board.size() && std::isdigit((unsigned char)board[i])) n = n * 10 + (board[i++] - '0');
            gap += n;
        } else {
            flush_gap();
            char k = (char)std::tolower((unsigned char)c);
            if (k != 'p' && k != 's' && k != 'a' && k != 'k' && k != 'x')
                throw std::runtime_error(std::string("Khet2-AI has no piece ") + c);
            out += c;
            i++;
            if (k == 'k') continue;
            size_t len = (k == 'a' || k == 'x') ? 1 : 2;
            std::string f = board.substr(i, len);
            i += len;
            int o = facing_index(f);
            if (o < 0) throw std::runtime_error("bad facing " + f);
            out += char('1' + o);
        }
    }
    flush_gap();
    return out + (side == "s" ? " 0" : " 1");
}

// Khet2-AI's board -> Plyscope's board field and side to move.
std::string from_khet2ai(const Board& b) {
    static const char* one[] = {"n", "e", "s", "w"};
    static const char* two[] = {"ne", "se", "sw", "nw"};
    std::string out;
    for (int r = 8; r >= 1; r--) {
        int gap = 0;
        for (int f = 1; f <= 10; f++) {
            Square s = b.Get(r * BoardWidth + f);
            if (!IsPiece(s)) {
                gap++;
                continue;
            }
            if (gap) out += std::to_string(gap);
            gap = 0;
            Piece p = GetPiece(s);
            int o = GetOrientation(s);
            char c = p == Piece::Anubis ? 'a' : p == Piece::Pyramid ? 'p' : p == Piece::Scarab ? 's'
                   : p == Piece::Pharaoh ? 'k' : 'x';
            out += GetOwner(s) == Player::Silver ? (char)std::toupper(c) : c;
            if (p == Piece::Pyramid) out += two[o];
            else if (p == Piece::Scarab) out += two[o % 2];
            else if (p == Piece::Anubis || p == Piece::Sphinx) out += one[o];
        }
        if (gap) out += std::to_string(gap);
        if (r > 1) out += '/';
    }
    return out + (b.PlayerToMove() == Player::Silver ? " s" : " r");
}

std::string square_name(int loc) {
    return std::string(1, char('a' + loc % BoardWidth - 1)) + std::to_string(loc / BoardWidth);
}

// The move in Plyscope's notation: h2-h3, e4=e5 (a swap), c1cw, c1ccw.
std::string plyscope_move(const Board& b, Move m) {
    int s = GetStart(m), e = GetEnd(m), r = GetRotation(m);
    if (s == e) return square_name(s) + (r > 0 ? "cw" : "ccw");
    return square_name(s) + (b.Get(e) == Empty ? "-" : "=") + square_name(e);
}

// A swap whose swapped piece lands on a square reserved for the other colour (Plyscope forbids it).
bool bad_swap(const Board& b, Move m) {
    int s = GetStart(m), e = GetEnd(m);
    if (s == e || b.Get(e) == Empty) return false;
    Player other = GetOwner(b.Get(e));
    return !CanMove[(int)other][s];
}

std::vector<Move> moves_of(const Board& b) {
    std::vector<Move> v;
    MoveGenerator gen(b);
    for (Move m = gen.Next(); m != NoMove; m = gen.Next()) v.push_back(m);
    return v;
}

// Prints every line of up to `depth` moves whose last move is a swap Plyscope forbids.
void bad_swap_lines(Board& b, int depth, std::vector<std::string>& line) {
    if (depth == 0) return;
    for (Move m : moves_of(b)) {
        line.push_back(plyscope_move(b, m));
        if (bad_swap(b, m)) {
            for (size_t i = 0; i < line.size(); i++) std::cout << (i ? " " : "") << line[i];
            std::cout << '\n';
        } else {
            b.MakeMove(m);
            bad_swap_lines(b, depth - 1, line);
            b.UndoMove();
        }
        line.pop_back();
    }
}

uint64_t perft(Board& b, int depth, bool filter) {
    if (depth == 0) return 1;
    uint64_t n = 0;
    for (Move m : moves_of(b)) {
        if (filter && bad_swap(b, m)) continue;
        b.MakeMove(m);
        n += perft(b, depth - 1, filter);
        b.UndoMove();
    }
    return n;
}

}  // namespace

int main() {
    Zobrist::Initialise();
    std::string line;
    while (std::getline(std::cin, line)) {
        try {
            size_t bar = line.find('|');
            if (bar == std::string::npos) throw std::runtime_error("expected COMMAND | POSITION");
            std::istringstream cmd(line.substr(0, bar)), pos(line.substr(bar + 1));
            std::string word, board, side;
            cmd >> word;
            pos >> board >> side;
            Board b(to_khet2ai(board, side));
            if (word == "perft") {
                int d = 0, f = 0;
                cmd >> d >> f;
                std::cout << perft(b, d, f != 0) << std::endl;
            } else if (word == "children") {
                for (Move m : moves_of(b)) {
                    std::string text = plyscope_move(b, m);
                    bool bad = bad_swap(b, m);
                    Board c(b);
                    c.MakeMove(m);
                    std::cout << text << ' ' << from_khet2ai(c) << (bad ? " swapbad" : "") << '\n';
                }
                std::cout << "end" << std::endl;
            } else if (word == "badswaps") {
                int d = 0;
                cmd >> d;
                std::vector<std::string> line;
                bad_swap_lines(b, d, line);
                std::cout << "end" << std::endl;
            } else if (word == "moves") {
                for (Move m : moves_of(b)) std::cout << ToString(m) << ' ';
                std::cout << std::endl;
            } else {
                throw std::runtime_error("unknown command " + word);
            }
        } catch (const std::exception& e) {
            std::cout << "error " << e.what() << std::endl;
        }
    }
    return 0;
}
