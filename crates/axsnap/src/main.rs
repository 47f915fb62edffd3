//! The `axsnap` command line.

fn main() {
    println!("axsnap");
}
