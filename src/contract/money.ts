/**
 * Cents, one way everywhere: amounts of money are kept to the cent (the portfolios' holdings, the
 * optimised amounts adopted, the banana challenge's budgets); billing counts whole cents.
 */

/** An amount in currency units rounded to the cent: 1234.565 → 1234.57. */
export const roundToCent = (amount: number): number => Math.round(amount * 100) / 100;

/** An amount in currency units as a whole number of cents: 1234.56 → 123456. */
export const toCents = (amount: number): number => Math.round(amount * 100);
