"""Buttons (and later LEDs) through gpiozero: real pins on a Pi, mock pins elsewhere."""
