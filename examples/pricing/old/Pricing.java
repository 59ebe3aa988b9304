package example;

/** Order pricing, before the refactoring. */
public class Pricing {
    /** Total price in cents of `quantity` items at `unitCents` each, with quantity discounts. */
    public static int price(int quantity, int unitCents) {
        if (quantity <= 0) {
            return 0;
        }
        int total = quantity * unitCents;
        if (quantity >= 100) {
            total = total - total / 10;   // 10% off from 100 items
        } else if (quantity >= 10) {
            total = total - total / 20;   // 5% off from 10 items
        }
        return total;
    }
}
