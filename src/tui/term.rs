//! The terminal loop: raw mode and the alternate screen (through
//! `ratatui::init`, which also restores the terminal before a panic message
//! is printed), then draw, wait for an event, hand keys to
//! [`Stepper::on_key`] and size changes to [`Stepper::resize`], until the app quits;
//! the terminal is restored on every way out.

use super::draw::draw;
use super::stepper::Stepper;
use crossterm::event::{self, Event};
use std::io;

/// Runs the interactive view until `q`, Esc or Ctrl-C.
pub fn run(app: &mut Stepper) -> io::Result<()> {
    let mut terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            ratatui::restore();
            return Err(e);
        }
    };
    let result = event_loop(&mut terminal, app);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut Stepper) -> io::Result<()> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    while !app.quit {
        terminal.draw(|frame| draw(frame, app))?;
        match event::read()? {
            Event::Key(key) => app.on_key(key),
            Event::Resize(w, h) => app.resize(w, h),
            _ => {}
        }
    }
    Ok(())
}
