// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NumberInput } from "../../src/ui/number-input.tsx";

afterEach(cleanup);

describe("NumberInput", () => {
  it("shows the number in the user's format", () => {
    render(<NumberInput aria-label="es" value={3323.96} locale="es" />);
    render(<NumberInput aria-label="en" value={3323.96} locale="en" />);
    expect(screen.getByLabelText("es")).toHaveProperty("value", "3.323,96");
    expect(screen.getByLabelText("en")).toHaveProperty("value", "3,323.96");
  });

  it("reads what is typed or pasted in either format, and shows it back in the user's", () => {
    const onValueChange = vi.fn();
    const onCommit = vi.fn();
    render(
      <NumberInput
        aria-label="amount"
        value={null}
        locale="es"
        onValueChange={onValueChange}
        onCommit={onCommit}
      />,
    );
    const input = screen.getByLabelText("amount");
    fireEvent.change(input, { target: { value: "3,323.96" } });
    expect(onValueChange).toHaveBeenLastCalledWith(3323.96);
    fireEvent.blur(input);
    expect(onCommit).toHaveBeenLastCalledWith(3323.96);
    expect(input).toHaveProperty("value", "3.323,96");
    fireEvent.change(input, { target: { value: "1.500,5" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onCommit).toHaveBeenLastCalledWith(1500.5);
    expect(input).toHaveProperty("value", "1.500,5");
  });

  it("marks a text that is not a number and goes back to the last number on leaving", () => {
    const onCommit = vi.fn();
    render(<NumberInput aria-label="amount" value={900} locale="en" onCommit={onCommit} />);
    const input = screen.getByLabelText("amount");
    fireEvent.change(input, { target: { value: "9x0" } });
    expect(input.getAttribute("aria-invalid")).toBe("true");
    fireEvent.blur(input);
    expect(onCommit).toHaveBeenLastCalledWith(900);
    expect(input).toHaveProperty("value", "900");
    expect(input.getAttribute("aria-invalid")).toBeNull();
  });

  it("follows a new value from outside", () => {
    const { rerender } = render(<NumberInput aria-label="amount" value={1000} locale="en" />);
    rerender(<NumberInput aria-label="amount" value={2500.5} locale="en" />);
    expect(screen.getByLabelText("amount")).toHaveProperty("value", "2,500.5");
  });
});
