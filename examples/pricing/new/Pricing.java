package example;

/** Order pricing, after a refactoring that was meant to change nothing. */
public class Pricing {
    /** Total price in cents of `quantity` items at `unitCents` each, with quantity discounts. */
    public static int price(int quantity, int unitCents) {
        if (quantity < 1) {
            return 0;
        }
        int total = unitCents * quantity;
        int percent = quantity > 100 ? 10 : (quantity >= 10 ? 5 : 0);
        return total - total * percent / 100;
    }
}
